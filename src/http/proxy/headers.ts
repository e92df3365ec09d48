// Header rewriting for the node proxy: hop-by-hop headers stay on their hop (RFC 9110 §7.6.1),
// the client's address is appended to X-Forwarded-For.

/** Hop-by-hop headers, plus every `proxy-*` header (checked separately). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Tokens listed in Connection headers (lowercased): those headers are hop-by-hop too. */
function connectionTokens(values: Iterable<string>): Set<string> {
  const tokens = new Set<string>();
  for (const v of values) {
    for (const t of v.split(',')) {
      const token = t.trim().toLowerCase();
      if (token) tokens.add(token);
    }
  }
  return tokens;
}

function isHopByHop(lowerName: string, named: ReadonlySet<string>): boolean {
  return HOP_BY_HOP.has(lowerName) || lowerName.startsWith('proxy-') || named.has(lowerName);
}

/**
 * uWS hands header values over as UTF-8-decoded strings while undici writes them as latin1:
 * re-encode so non-ASCII bytes reach the node as the client sent them.
 */
function wireValue(value: string): string {
  // eslint-disable-next-line no-control-regex
  return /[^\x00-\x7f]/.test(value) ? Buffer.from(value, 'utf8').toString('latin1') : value;
}

export interface ForwardedRequestHeaders {
  /** Flat [name, value, name, value, ...] list for undici. */
  headers: string[];
  contentLength: string | undefined;
  transferEncoding: string | undefined;
  contentType: string | undefined;
}

/**
 * Headers to send upstream. `raw` is the client's headers as uWS lists them (lowercase names, in order).
 * Dropped: hop-by-hop ones, `host` (undici sends the node's own authority; the client's goes in
 * X-Forwarded-Host unless already set) and `expect` (the 100-continue handshake is per hop).
 */
export function forwardRequestHeaders(raw: readonly (readonly [string, string])[], clientAddress: string): ForwardedRequestHeaders {
  const named = connectionTokens(raw.filter(([k]) => k === 'connection').map(([, v]) => v));
  const headers: string[] = [];
  const xff: string[] = [];
  let host: string | undefined;
  let hasForwardedHost = false;
  let contentLength: string | undefined;
  let transferEncoding: string | undefined;
  let contentType: string | undefined;
  for (const [name, value] of raw) {
    switch (name) {
      case 'host':
        host = value;
        continue;
      case 'expect':
        continue;
      case 'x-forwarded-for':
        xff.push(value);
        continue;
      case 'transfer-encoding':
        transferEncoding = value;
        continue;
      case 'content-length':
        contentLength = value;
        break;
      case 'content-type':
        contentType = value;
        break;
      case 'x-forwarded-host':
        hasForwardedHost = true;
        break;
    }
    if (isHopByHop(name, named)) continue;
    headers.push(name, wireValue(value));
  }
  // Transfer-Encoding overrides Content-Length and a proxy must drop the latter (RFC 9112 §6.3): the body
  // goes upstream chunked.
  if (transferEncoding !== undefined && contentLength !== undefined) {
    contentLength = undefined;
    for (let i = headers.length - 2; i >= 0; i -= 2) if (headers[i] === 'content-length') headers.splice(i, 2);
  }
  if (host !== undefined && !hasForwardedHost) headers.push('x-forwarded-host', wireValue(host));
  if (clientAddress) xff.push(clientAddress);
  if (xff.length > 0) headers.push('x-forwarded-for', wireValue(xff.join(', ')));
  return { headers, contentLength, transferEncoding, contentType };
}

export interface ForwardedResponseHeaders {
  /** [name, value] pairs as the node sent them (original case and bytes). */
  headers: [Buffer | string, Buffer | string][];
  /** The node's Content-Length, when it sent a valid one (uWS writes its own header from it). */
  contentLength: number | undefined;
}

const asString = (v: Buffer | string): string => (typeof v === 'string' ? v : v.toString('latin1'));

/**
 * Headers to send back to the client. Also dropped: `content-length` (uWS frames the body itself and
 * writes its own) and `date` (uWS always writes one; two would be invalid).
 */
export function forwardResponseHeaders(raw: readonly (Buffer | string)[]): ForwardedResponseHeaders {
  const names: string[] = [];
  for (let i = 0; i < raw.length; i += 2) names.push(asString(raw[i]).toLowerCase());
  const named = connectionTokens(names.flatMap((n, i) => (n === 'connection' ? [asString(raw[i * 2 + 1])] : [])));
  const headers: [Buffer | string, Buffer | string][] = [];
  let contentLength: number | undefined;
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (name === 'content-length') {
      const v = asString(raw[i * 2 + 1]).trim();
      if (/^\d+$/.test(v)) contentLength = Number(v);
      continue;
    }
    if (name === 'date' || isHopByHop(name, named)) continue;
    headers.push([raw[i * 2], raw[i * 2 + 1]]);
  }
  return { headers, contentLength };
}

/**
 * The client's address as text from uWS's binary form (4 or 16 bytes): dotted IPv4 (also for
 * IPv4-mapped IPv6) or compressed IPv6 (RFC 5952), as X-Forwarded-For expects.
 */
export function formatClientAddress(binary: ArrayBuffer): string {
  const b = new Uint8Array(binary);
  if (b.length === 4) return b.join('.');
  if (b.length !== 16) return '';
  if (b.subarray(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) return Array.from(b.subarray(12)).join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((b[i] << 8) | b[i + 1]);
  // Longest run (at least 2) of zero groups becomes "::".
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/** Exclusion patterns: `/v2/prices/*` matches everything under /v2/prices/, other patterns match exactly. */
export function compileExclusions(patterns: readonly string[]): (url: string) => boolean {
  const prefixes = patterns.filter((p) => p.endsWith('/*')).map((p) => p.slice(0, -1));
  const exact = new Set(patterns.filter((p) => !p.endsWith('/*')));
  if (prefixes.length === 0 && exact.size === 0) return () => false;
  return (url) => exact.has(url) || prefixes.some((p) => url.startsWith(p) || url === p.slice(0, -1));
}
