// Routes whose handler runs on the main thread whichever thread took the request. An API thread
// checks the request as always (params, query, body), hands it to the main thread's handler by
// message and answers with its result; ETags, caching headers, CORS and the request log are then
// its own, exactly as for any other route.
//
// Why these: they read what exists once per process and changes with every event the node posts,
// not only with a stored batch (the event log's received id, processing errors, held and
// quarantined entries: /extended, /ready, Rosetta's network status), or they own engine sessions
// of their own (the analytics SQL sandbox, see engine-reads.ts).
import { isReply, type RouteDef } from '../http/route.ts';
import type { ApiRequest } from '../http/request.ts';
import type { Reply } from '../server/respond.ts';
import { HttpError } from '../http/errors.ts';
import { JsonText } from '../server/json-text.ts';
import type { RpcChannel } from './rpc.ts';

export const MAIN_THREAD_ROUTES: ReadonlySet<string> = new Set(['get /extended', 'get /ready', 'post /rosetta/v1/network/status', 'post /extended/analytics/v1/sql']);

const MAIN_ROUTE = 'main-route';

export const routeKey = (r: Pick<RouteDef, 'method' | 'path'>): string => `${r.method} ${r.path}`;

/** A request as it crosses threads (URLSearchParams and Buffer do not). */
interface SentRequest {
  key: string;
  method: string;
  path: string;
  rawQuery: string;
  params: Record<string, string>;
  headers: Record<string, string>;
  remoteAddress: string;
  /** The checked query values (requestValidator). */
  q?: Record<string, unknown>;
  body?: Uint8Array;
}

type SentBody = { kind: 'json-text'; text: string | Uint8Array; stable: boolean; etag?: string } | { kind: 'buffer'; bytes: Uint8Array } | { kind: 'plain'; value: unknown };

/** A handler's outcome as it crosses threads. */
type Outcome = { kind: 'value'; body: SentBody } | { kind: 'reply'; status: number; headers?: Record<string, string>; body: SentBody } | { kind: 'http-error'; status: number; body: Record<string, unknown> };

function sendBody(body: unknown): SentBody {
  if (body instanceof JsonText) return { kind: 'json-text', text: body.body, stable: body.stableUntilReorg, etag: body.etag };
  if (Buffer.isBuffer(body)) return { kind: 'buffer', bytes: body };
  return { kind: 'plain', value: body };
}

function receiveBody(b: SentBody): unknown {
  if (b.kind === 'json-text') return new JsonText(typeof b.text === 'string' ? b.text : Buffer.from(b.text.buffer, b.text.byteOffset, b.text.byteLength), b.stable, b.etag);
  if (b.kind === 'buffer') return Buffer.from(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
  return b.value;
}

/** API thread: the routes, with those of MAIN_THREAD_ROUTES answered by the main thread. */
export function withMainThreadRoutes<Ctx>(routes: readonly RouteDef<Ctx>[], channel: RpcChannel): RouteDef<Ctx>[] {
  return routes.map((route) => {
    const key = routeKey(route);
    if (!MAIN_THREAD_ROUTES.has(key)) return route;
    return { ...route, handler: (req: ApiRequest) => onMainThread(channel, key, req) };
  });
}

async function onMainThread(channel: RpcChannel, key: string, req: ApiRequest): Promise<unknown> {
  const extra = req as ApiRequest & { q?: Record<string, unknown>; body?: Buffer };
  const sent: SentRequest = { key, method: req.method, path: req.path, rawQuery: req.rawQuery, params: req.params, headers: req.headers, remoteAddress: req.remoteAddress, q: extra.q, body: extra.body };
  const out = await channel.call<Outcome>(MAIN_ROUTE, sent);
  if (out.kind === 'http-error') throw new HttpError(out.status, out.body);
  if (out.kind === 'reply') return { status: out.status, ...(out.headers ? { headers: out.headers } : {}), body: receiveBody(out.body) } satisfies Reply;
  return receiveBody(out.body);
}

/** Main thread: runs the API threads' requests of MAIN_THREAD_ROUTES with its own handlers and
 *  context (`contextFor`, as its own app gives each route). */
export function serveMainThreadRoutes<Ctx>(channel: RpcChannel, routes: readonly RouteDef<Ctx>[], contextFor: (route: RouteDef<Ctx>) => Ctx): void {
  const byKey = new Map(routes.filter((r) => MAIN_THREAD_ROUTES.has(routeKey(r))).map((r) => [routeKey(r), r]));
  channel.handle<SentRequest, Outcome>(MAIN_ROUTE, async (sent) => {
    const route = byKey.get(sent.key);
    if (!route) throw new Error(`no main-thread route ${sent.key}`);
    const req: ApiRequest & { q?: Record<string, unknown>; body?: Buffer } = {
      method: sent.method,
      path: sent.path,
      query: new URLSearchParams(sent.rawQuery),
      rawQuery: sent.rawQuery,
      params: sent.params,
      headers: sent.headers,
      remoteAddress: sent.remoteAddress,
      q: sent.q,
      ...(sent.body ? { body: Buffer.from(sent.body.buffer, sent.body.byteOffset, sent.body.byteLength) } : {}),
    };
    try {
      const out = await route.handler(req, contextFor(route));
      if (isReply(out)) return { kind: 'reply', status: out.status, headers: out.headers, body: sendBody(out.body) };
      return { kind: 'value', body: sendBody(out) };
    } catch (e) {
      if (e instanceof HttpError) return { kind: 'http-error', status: e.status, body: e.body };
      throw e;
    }
  });
}
