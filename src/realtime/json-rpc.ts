// JSON-RPC 2.0 over WebSocket at /extended/v1/ws (uWS native WebSockets), as the reference serves
// it: methods `subscribe` and `unsubscribe` with `{event, …}` params; notifications named as the
// events. Beyond it: a `cursor` member on every notification, a `cursor` param of `subscribe`
// that resumes from it, and the subscribe result names the cursor the subscription starts after.
import type { TemplatedApp, WebSocket } from 'uWebSockets.js';
import type { Hub } from './hub.ts';
import { CursorError } from './hub.ts';
import { Client } from './client.ts';
import type { RealtimeConfig } from './config.ts';
import type { Outgoing } from './outgoing.ts';
import { formatCursor, parseCursor } from '../serving/journal/messages.ts';
import { rpcTopic } from './topics.ts';

export const WS_PATH = '/extended/v1/ws';

/** Close code for a client closed by the server for falling behind (a private-use code). */
const CLOSE_SLOW = 4008;
const MAX_REQUEST_BYTES = 64 * 1024;

type Id = string | number | null;
type RpcReply = { jsonrpc: '2.0'; id: Id; result: unknown } | { jsonrpc: '2.0'; id: Id; error: { code: number; message: string } };

const fail = (id: Id, code: number, message: string): RpcReply => ({ jsonrpc: '2.0', id, error: { code, message } });
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

interface SocketData {
  client?: RpcClient;
}

class RpcClient extends Client {
  readonly channel = 'websocket' as const;

  constructor(private readonly ws: WebSocket<SocketData>) {
    super();
  }

  write(m: Outgoing): void {
    this.ws.send(m.frame(), false);
  }

  reply(text: string): void {
    if (!this.closed) this.ws.send(text, false);
  }

  buffered(): number {
    return this.closed ? 0 : this.ws.getBufferedAmount();
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.ws.end(CLOSE_SLOW, reason.slice(0, 120));
  }
}

function isId(v: unknown): v is Id {
  return v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** One request's reply (undefined for a notification, which is never answered). */
function handleRequest(hub: Hub, client: RpcClient, req: unknown): RpcReply | undefined {
  if (!req || typeof req !== 'object' || Array.isArray(req)) return fail(null, INVALID_REQUEST, 'Invalid Request');
  const r = req as Record<string, unknown>;
  if (!Object.hasOwn(r, 'id')) return undefined;
  const id = isId(r.id) ? r.id : null;
  if (r.jsonrpc !== '2.0' || typeof r.method !== 'string' || !isId(r.id)) return fail(id, INVALID_REQUEST, 'Invalid Request');
  if (r.method !== 'subscribe' && r.method !== 'unsubscribe') return fail(id, METHOD_NOT_FOUND, 'Method not found');
  const sub = rpcTopic(r.params);
  if ('error' in sub) return fail(id, INVALID_PARAMS, sub.error);
  if (r.method === 'unsubscribe') {
    hub.unsubscribe(client, sub.topic);
    return { jsonrpc: '2.0', id, result: sub.result };
  }
  const rawCursor = (r.params as Record<string, unknown>).cursor;
  if (rawCursor === undefined) {
    if (!hub.subscribe(client, sub.topic)) return fail(id, INVALID_PARAMS, 'too many subscriptions on this connection');
    return { jsonrpc: '2.0', id, result: { ...sub.result, cursor: formatCursor(hub.head) } };
  }
  const cursor = parseCursor(rawCursor);
  if (!cursor) return fail(id, INVALID_PARAMS, 'invalid cursor');
  try {
    // The replay starts after this reply is written (it runs on a later tick).
    const { refused } = hub.resume(client, cursor, [sub.topic]);
    if (refused.length > 0) return fail(id, INVALID_PARAMS, 'too many subscriptions on this connection');
  } catch (e) {
    if (e instanceof CursorError) return fail(id, INVALID_PARAMS, e.message);
    throw e;
  }
  return { jsonrpc: '2.0', id, result: { ...sub.result, cursor: rawCursor } };
}

function handleMessage(hub: Hub, client: RpcClient, text: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    client.reply(JSON.stringify(fail(null, PARSE_ERROR, 'Parse error')));
    return;
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return client.reply(JSON.stringify(fail(null, INVALID_REQUEST, 'Invalid Request')));
    const replies = parsed.map((req) => handleRequest(hub, client, req)).filter((x) => x !== undefined);
    if (replies.length > 0) client.reply(JSON.stringify(replies));
    return;
  }
  const reply = handleRequest(hub, client, parsed);
  if (reply) client.reply(JSON.stringify(reply));
}

export function registerJsonRpc(app: TemplatedApp, hub: Hub, config: RealtimeConfig): void {
  const behavior = {
    // uWS pings a connection idle for most of this (heartbeats through proxies) and closes one that
    // stays silent; over the backpressure limit it closes too (the hub closes first, with a reason).
    idleTimeout: Math.max(8, Math.min(960, config.pingIntervalSec + config.pingTimeoutSec)),
    sendPingsAutomatically: true,
    maxBackpressure: config.maxBackpressure * 2,
    closeOnBackpressureLimit: 1, // (a boolean; the binding's typings say number)
    maxPayloadLength: MAX_REQUEST_BYTES,
    open: (ws: WebSocket<SocketData>) => {
      const client = new RpcClient(ws);
      ws.getUserData().client = client;
      hub.connect(client);
    },
    message: (ws: WebSocket<SocketData>, message: ArrayBuffer) => {
      const client = ws.getUserData().client;
      if (!client || client.closed) return;
      handleMessage(hub, client, Buffer.from(message).toString('utf8'));
    },
    close: (ws: WebSocket<SocketData>) => {
      const client = ws.getUserData().client;
      if (!client) return;
      client.closed = true;
      hub.disconnect(client);
    },
  };
  app.ws<SocketData>(WS_PATH, behavior);
  app.ws<SocketData>(`${WS_PATH}/`, behavior);
}
