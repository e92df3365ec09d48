// Calls the API's route handlers in process, as the server would for a GET of a URL, so one URL can
// be answered twice: from ClickHouse alone and with the serving store.
import { apiRoutes } from '../../http/routes.ts';
import { requestValidator, type RouteDef } from '../../http/route.ts';
import { HttpError } from '../../http/errors.ts';
import { JsonText } from '../../server/json-text.ts';
import type { ApiContext } from '../../http/context.ts';
import type { ApiRequest } from '../../http/request.ts';

export interface Answer {
  status: number;
  body: unknown;
}

interface CompiledRoute {
  route: RouteDef<ApiContext>;
  segments: string[];
  params: number;
  validate: (r: ApiRequest) => void;
}

const compiled: CompiledRoute[] = apiRoutes
  .filter((r) => r.method === 'get')
  .map((route) => {
    const segments = route.path.split('/');
    return { route, segments, params: segments.filter((s) => s.startsWith(':')).length, validate: requestValidator(route as RouteDef<never>) };
  })
  // As uWebSockets.js routes: a static segment wins over a parameter.
  .sort((a, b) => a.params - b.params);

function match(path: string): { route: CompiledRoute; params: Record<string, string> } | undefined {
  const parts = path.split('/');
  for (const c of compiled) {
    if (c.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    if (c.segments.every((s, i) => (s.startsWith(':') ? ((params[s.slice(1)] = decodeURIComponent(parts[i])), true) : s === parts[i]))) return { route: c, params };
  }
  return undefined;
}

/** The answer to GET `url` (path and query) with this context; with `parse: false` a JSON answer's
 *  body is its text, as the server would send it (the bench measures the handler, not a parse). */
export async function answer(url: string, ctx: ApiContext, opts: { parse?: boolean } = {}): Promise<Answer> {
  const parse = opts.parse ?? true;
  const u = new URL(url, 'http://check');
  const m = match(u.pathname);
  if (!m) return { status: 404, body: { error: `no route for ${u.pathname}` } };
  const req: ApiRequest = { method: 'GET', path: u.pathname, query: u.searchParams, rawQuery: u.search.slice(1), params: m.params, headers: {}, remoteAddress: '' };
  try {
    m.route.validate(req);
    const out = await m.route.route.handler(req, ctx);
    if (out instanceof JsonText) return { status: 200, body: parse ? JSON.parse(out.text) : out.body };
    if (out && typeof out === 'object' && 'status' in out && 'body' in out) return { status: (out as Answer).status, body: (out as Answer).body };
    const text = JSON.stringify(out);
    return { status: 200, body: parse ? JSON.parse(text) : text };
  } catch (e) {
    if (e instanceof HttpError) return { status: e.status, body: e.body };
    return { status: 500, body: { error: (e as Error).message } };
  }
}

/** Where two JSON values differ (paths), at most `max`. */
export function differences(a: unknown, b: unknown, path = '', out: string[] = [], max = 5): string[] {
  if (out.length >= max) return out;
  if (a === b) return out;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    out.push(`${path || '.'}: ${JSON.stringify(a)?.slice(0, 120)} != ${JSON.stringify(b)?.slice(0, 120)}`);
    return out;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return (out.push(`${path}: array vs object`), out);
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) out.push(`${path}: length ${a.length} != ${bb.length}`);
    for (let i = 0; i < Math.min(a.length, bb.length); i++) differences(a[i], bb[i], `${path}[${i}]`, out, max);
    return out;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
    if (!(k in ao) || !(k in bo)) out.push(`${path}.${k}: only in ${k in ao ? 'the first' : 'the second'}`);
    else differences(ao[k], bo[k], `${path}.${k}`, out, max);
    if (out.length >= max) break;
  }
  return out;
}
