// Payloads are the REST answers: each message's object is rendered by calling the very route
// handler that answers its GET (request checks included), in process, without HTTP.
import type { RouteDef } from '../http/route.ts';
import { isReply, requestValidator } from '../http/route.ts';
import type { ApiRequest } from '../http/request.ts';
import { HttpError } from '../http/errors.ts';
import { JsonText } from '../server/json-text.ts';

const PATTERNS = {
  blockByHash: '/extended/v1/block/:hash',
  microblock: '/extended/v1/microblock/:hash',
  tx: '/extended/v1/tx/:tx_id',
  withTransfers: '/extended/v1/address/:principal/:tx_id/with_transfers',
  stxBalance: '/extended/v1/address/:principal/stx',
} as const;

export type RestPattern = keyof typeof PATTERNS;

/** Answers a GET of one of the patterns above as its route does (its 200 body, or undefined). */
export type RestGet = (pattern: RestPattern, params: Record<string, string>, query?: Record<string, string>) => Promise<Record<string, unknown> | undefined>;

export function restRenderer<Ctx>(routes: readonly RouteDef<Ctx>[], ctx: Ctx): RestGet {
  const handlers = new Map<RestPattern, (req: ApiRequest) => Promise<unknown>>();
  for (const [name, path] of Object.entries(PATTERNS) as Array<[RestPattern, string]>) {
    const route = routes.find((r) => r.method === 'get' && r.path === path);
    if (!route) throw new Error(`real-time payloads: no route ${path}`);
    const validate = requestValidator(route as RouteDef<never>);
    handlers.set(name, async (req) => {
      validate(req);
      return route.handler(req, ctx);
    });
  }
  return async (pattern, params, query = {}) => {
    const path = PATTERNS[pattern].replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name]));
    const q = new URLSearchParams(query);
    const req: ApiRequest = { method: 'GET', path, query: q, rawQuery: q.toString(), params: { ...params }, headers: {}, remoteAddress: '' };
    try {
      const out = await handlers.get(pattern)!(req);
      const body = isReply(out) ? (out.status === 200 ? out.body : undefined) : out;
      if (body === undefined) return undefined;
      return (body instanceof JsonText ? JSON.parse(body.text) : body) as Record<string, unknown>;
    } catch (e) {
      // Not there (yet, or any more): nothing to announce.
      if (e instanceof HttpError && e.status < 500) return undefined;
      throw e;
    }
  };
}
