// Asks a v1/v2 route for its answer from inside a v3 handler. The v3 routes are the same data in
// other shapes: reading it through the twin keeps both agreeing and serves v3 from wherever the twin
// is served (the serving store where it is, ClickHouse otherwise).
import type { RouteDef } from '../route.ts';
import { isReply, requestValidator } from '../route.ts';
import type { ApiRequest } from '../request.ts';
import type { ApiContext } from '../context.ts';
import { HttpError } from '../errors.ts';
import { JsonText } from '../../server/json-text.ts';

/** A twin's answer: its status and parsed body. */
export interface TwinAnswer<T> {
  status: number;
  body: T;
}

const validators = new WeakMap<RouteDef<ApiContext>, (r: ApiRequest) => void>();

function requestFor(route: RouteDef<ApiContext>, params: Record<string, string>, query: Record<string, string | number | boolean | undefined>): ApiRequest {
  let path = route.path;
  for (const [k, v] of Object.entries(params)) path = path.replace(`:${k}`, encodeURIComponent(v));
  const search = new URLSearchParams(Object.entries(query).filter((e): e is [string, string | number | boolean] => e[1] !== undefined).map(([k, v]) => [k, String(v)]));
  return { method: 'GET', path, query: search, rawQuery: search.toString(), params, headers: {}, remoteAddress: '' };
}

/** The twin's answer to a GET with these params and query (errors answered as statuses). */
export async function askTwin<T>(route: RouteDef<ApiContext>, ctx: ApiContext, params: Record<string, string>, query: Record<string, string | number | boolean | undefined> = {}): Promise<TwinAnswer<T>> {
  const req = requestFor(route, params, query);
  let validate = validators.get(route);
  if (!validate) validators.set(route, (validate = requestValidator(route as RouteDef<never>)));
  try {
    validate(req);
    const out = await route.handler(req, ctx);
    if (isReply(out)) return { status: out.status, body: (typeof out.body === 'string' && out.body ? JSON.parse(out.body) : out.body) as T };
    return { status: 200, body: (out instanceof JsonText ? JSON.parse(out.text) : out) as T };
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, body: err.body as T };
    throw err;
  }
}

/** The twin route of `path` among `routes` (a missing one is a programming error). */
export function twinRoute(routes: readonly RouteDef<ApiContext>[], path: string): RouteDef<ApiContext> {
  const route = routes.find((r) => r.path === path && r.method === 'get');
  if (!route) throw new Error(`no twin route ${path}`);
  return route;
}
