// What a route handler sees of a uWebSockets.js request. uWS request objects are only valid
// synchronously inside the callback, so everything is copied out before the first await.
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { httpError } from './errors.ts';

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

/** A path segment, percent-decoded; null when its escapes are malformed (`%zz`, a cut `%E0%A4%A`). */
export function decodeSegment(raw: string): string | null {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** Copies the request out of uWS. A path parameter that is not valid percent-encoding is the
 *  client's error: a 400 naming the path, as the reference (Fastify) words it. */
export function copyRequest(res: HttpResponse, req: HttpRequest, paramNames: readonly string[], withAddress = true): ApiRequest {
  const headers: Record<string, string> = {};
  req.forEach((k, v) => {
    headers[k] = v;
  });
  const path = req.getUrl();
  const params: Record<string, string> = {};
  for (let i = 0; i < paramNames.length; i++) {
    const value = decodeSegment(req.getParameter(i) ?? '');
    if (value === null) throw httpError(400, `'${path}' is not a valid url component`, { code: 'FST_ERR_BAD_URL' });
    params[paramNames[i]] = value;
  }
  const rawQuery = req.getQuery() ?? '';
  return {
    method: req.getCaseSensitiveMethod().toUpperCase(),
    path,
    query: new URLSearchParams(rawQuery),
    rawQuery,
    params,
    headers,
    remoteAddress: withAddress ? remoteAddressOf(res) : '',
  };
}

/** The client's address as text. It is a few ASCII bytes, read one by one (a Buffer per request,
 *  or a spread of the bytes, was 5-8% of a small answer's CPU). */
export function remoteAddressOf(res: HttpResponse): string {
  const bytes = new Uint8Array(res.getRemoteAddressAsText());
  let text = '';
  for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
  return text;
}

/** Names of the `:param` segments of a uWS route pattern, in order. */
export function paramNamesOf(pattern: string): string[] {
  return pattern
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));
}
