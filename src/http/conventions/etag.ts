// Entity tags and client caching of GET answers. The tag is a digest of the answer's bytes: a
// client that sends it back in If-None-Match gets a 304 while the answer is the same, whatever made
// it change (new blocks, a reorg, the mempool). The reference tags txs, blocks, principals and the
// mempool with digests of their chain state; a digest of the answer itself covers every route
// alike and is never stale. Answers are kept with their tag in the response cache, so a cached
// answer is not digested again. One answer brings its own tag instead (identityTagOf): a block's v2
// txs page, whose digest (35 KB of SHA-1, 19 µs) was a tenth of its CPU.
import { hash } from 'node:crypto';
import { SERVER_VERSION } from './version.ts';

/** A strong tag (quoted, as it goes in the ETag header). The one-shot digest: a Hash object per
 *  answer cost a small answer twice the digest itself. */
export function etagOf(body: string | Buffer): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/**
 * A tag made from everything that determines an answer (`identity`: immutable documents' ids and the
 * view's flags over them) instead of its bytes, for answers whose digest is a large share of their
 * CPU (a block's 35 KB txs page: 19 µs of SHA-1, the digest's full speed, of ~200). The server's
 * version is part of it: another build may render the same documents otherwise.
 */
export function identityTagOf(identity: string): string {
  return `"i${hash('sha1', `${SERVER_VERSION}\n${identity}`, 'base64url')}"`;
}

/** Whether an If-None-Match header names `etag` (or is `*`). Weak tags compare by their opaque part,
 *  as the weak comparison RFC 9110 asks for If-None-Match. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  for (const part of header.split(',')) {
    const t = part.trim();
    if ((t.startsWith('W/') ? t.slice(2) : t) === etag) return true;
  }
  return false;
}

/** Answers that must be checked with the server before a cache reuses them (the reference's value). */
export const REVALIDATE = 'public, no-cache, must-revalidate';

/** A settled answer (a mined canonical tx) this many blocks below the tip is treated as final: a
 *  reorg that deep does not happen, so clients may keep it without asking (STACKS_API_SETTLED_DEPTH). */
export const SETTLED_DEPTH = 100;
/** How long clients may keep such an answer, seconds. */
export const SETTLED_MAX_AGE = 86_400;

/** The Cache-Control of an answer: final ones (settled at `height`, far enough below `tip`) may be
 *  kept for a day; the rest are revalidated with their tag. */
export function cacheControlOf(settledHeight: number | undefined, tip: number | undefined, depth = SETTLED_DEPTH): string {
  if (settledHeight !== undefined && tip !== undefined && tip - settledHeight >= depth) return `public, max-age=${SETTLED_MAX_AGE}, immutable`;
  return REVALIDATE;
}

/** The block height of a settled tx answer (its first `block_height` field, which in a tx object is
 *  the tx's own: the fields before it hold no object with one). */
export function settledHeightOf(text: string): number | undefined {
  const m = /"block_height":(\d+)/.exec(text);
  return m ? Number(m[1]) : undefined;
}
