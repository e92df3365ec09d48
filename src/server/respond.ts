// Writing responses on uWebSockets.js: always inside cork, never after the client aborted. A HEAD
// request gets the GET answer's status and headers (its length too) without the body.
import type { HttpResponse } from 'uWebSockets.js';
import { STATUS_CODES } from 'node:http';
import { JsonText } from './json-text.ts';
import { ANY_ORIGIN } from './cors.ts';

export const statusText = (status: number): string => STATUS_CODES[status] ?? 'Unknown';

export interface ResponseState {
  aborted: boolean;
  /** A HEAD request: status and headers only. */
  head?: boolean;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Objects are sent as JSON, JsonText as its text; strings and buffers as they are. */
  body: unknown;
}

/** Headers every API answer carries by default: browsers may read it from any origin, as the
 *  reference's CORS plugin allows (cors.ts; STACKS_API_CORS_ORIGIN narrows it). */
export const CORS_HEADERS: Readonly<Record<string, string>> = ANY_ORIGIN.headers('');

/** Writes the answer; returns the body's length in bytes (0 when the client had gone). */
export function writeReply(res: HttpResponse, state: ResponseState, reply: Reply, extraHeaders?: Readonly<Record<string, string>>): number {
  if (state.aborted) return 0;
  let payload: string | Buffer;
  let contentType = 'application/json; charset=utf-8';
  if (reply.body instanceof JsonText) {
    payload = reply.body.body;
  } else if (typeof reply.body === 'string') {
    payload = reply.body;
    contentType = 'text/plain; charset=utf-8';
  } else if (Buffer.isBuffer(reply.body)) {
    payload = reply.body;
    contentType = 'application/octet-stream';
  } else {
    payload = JSON.stringify(reply.body);
  }
  const length = Buffer.byteLength(payload);
  res.cork(() => {
    res.writeStatus(`${reply.status} ${statusText(reply.status)}`);
    let hasType = false;
    for (const [k, v] of Object.entries(reply.headers ?? {})) {
      if (k.toLowerCase() === 'content-type') hasType = true;
      res.writeHeader(k, v);
    }
    for (const [k, v] of Object.entries(extraHeaders ?? {})) res.writeHeader(k, v);
    if (!hasType) res.writeHeader('content-type', contentType);
    if (state.head) endWithoutBody(res, length);
    else res.end(payload);
  });
  return state.head ? 0 : length;
}

/** Ends a HEAD answer. This uWS build does not count endWithoutBody as a response, and aborts the
 *  process when a handler returns without one unless an abort handler is attached. */
export function endWithoutBody(res: HttpResponse, length: number): void {
  res.onAborted(() => {});
  res.endWithoutBody(length);
}

export function writeJson(res: HttpResponse, state: ResponseState, status: number, body: unknown): void {
  writeReply(res, state, { status, body });
}
