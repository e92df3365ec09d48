// What a route handler sees of a uWebSockets.js request. uWS request objects are only valid
// synchronously inside the callback, so everything is copied out before the first await.
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';

export interface ApiRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  /** Raw query string (without '?'). */
  rawQuery: string;
  params: Record<string, string>;
  headers: Record<string, string>;
  remoteAddress: string;
}

export function copyRequest(res: HttpResponse, req: HttpRequest, paramNames: readonly string[]): ApiRequest {
  const headers: Record<string, string> = {};
  req.forEach((k, v) => {
    headers[k] = v;
  });
  const params: Record<string, string> = {};
  paramNames.forEach((name, i) => {
    params[name] = decodeURIComponent(req.getParameter(i) ?? '');
  });
  const rawQuery = req.getQuery() ?? '';
  return {
    method: req.getCaseSensitiveMethod().toUpperCase(),
    path: req.getUrl(),
    query: new URLSearchParams(rawQuery),
    rawQuery,
    params,
    headers,
    remoteAddress: Buffer.from(res.getRemoteAddressAsText()).toString(),
  };
}

/** Names of the `:param` segments of a uWS route pattern, in order. */
export function paramNamesOf(pattern: string): string[] {
  return pattern
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));
}
