// Writing responses on uWebSockets.js: always inside cork, never after the client aborted.
import type { HttpResponse } from 'uWebSockets.js';
import { statusText } from './errors.ts';
import { JsonText } from './json-text.ts';

export interface ResponseState {
  aborted: boolean;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Objects are sent as JSON, JsonText as its text; strings and buffers as they are. */
  body: unknown;
}

export function writeReply(res: HttpResponse, state: ResponseState, reply: Reply): void {
  if (state.aborted) return;
  let payload: string | Buffer;
  let contentType = 'application/json; charset=utf-8';
  if (reply.body instanceof JsonText) {
    payload = reply.body.text;
  } else if (typeof reply.body === 'string') {
    payload = reply.body;
    contentType = 'text/plain; charset=utf-8';
  } else if (Buffer.isBuffer(reply.body)) {
    payload = reply.body;
    contentType = 'application/octet-stream';
  } else {
    payload = JSON.stringify(reply.body);
  }
  res.cork(() => {
    res.writeStatus(`${reply.status} ${statusText(reply.status)}`);
    let hasType = false;
    for (const [k, v] of Object.entries(reply.headers ?? {})) {
      if (k.toLowerCase() === 'content-type') hasType = true;
      res.writeHeader(k, v);
    }
    if (!hasType) res.writeHeader('content-type', contentType);
    res.end(payload);
  });
}

export function writeJson(res: HttpResponse, state: ResponseState, status: number, body: unknown): void {
  writeReply(res, state, { status, body });
}
