// A cache of whole GET answers, valid while the stored chain data has not changed: entries carry
// the data version they were computed at (the processor's committed log id, or a clock tick where
// this process does not ingest) and are dropped when it moves on. Answers that only a reorg can
// change (a mined, canonical tx) are kept under the reorg generation instead, so they outlive new
// blocks. Bounded by bytes, least recently used out first. The reference API does the same with
// ETags keyed on its chain tip.
import { readResponseCacheMb } from '../../config/tuning.ts';

export interface CachedReply {
  status: number;
  /** JSON text, or its UTF-8 bytes. */
  body: string | Buffer;
  /** Its entity tag (computed once, when it was cached). */
  etag?: string;
  /** A settled tx answer: the block height it was mined at (see etag.ts). */
  settledHeight?: number;
}

/** What an answer depends on: any new chain data, or only a reorg. */
export type CacheScope = 'commit' | 'reorg';

/** The current version of each scope. */
export interface CacheVersions {
  commit: number;
  reorg: number;
}

interface Entry extends CachedReply {
  scope: CacheScope;
  version: number;
  bytes: number;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  /** Bytes held (estimated) and entries. */
  get size(): { bytes: number; entries: number } {
    return { bytes: this.bytes, entries: this.entries.size };
  }

  get(key: string, versions: CacheVersions): CachedReply | undefined {
    const e = this.entries.get(key);
    if (!e || e.version !== versions[e.scope]) {
      this.misses++;
      return undefined;
    }
    // Re-insert: Map order is the LRU order.
    this.entries.delete(key);
    this.entries.set(key, e);
    this.hits++;
    return e;
  }

  set(key: string, scope: CacheScope, versions: CacheVersions, reply: CachedReply): void {
    const bytes = (typeof reply.body === 'string' ? reply.body.length * 2 : reply.body.length) + key.length * 2 + 64;
    if (bytes > this.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
    this.entries.set(key, { ...reply, scope, version: versions[scope], bytes });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }
}

/** Size from STACKS_API_RESPONSE_CACHE_MB (default 64; 0 turns the cache off). */
export function responseCacheFromEnv(env: Record<string, string | undefined> = process.env): ResponseCache | undefined {
  const mb = readResponseCacheMb(env);
  return mb > 0 ? new ResponseCache(mb * 1024 * 1024) : undefined;
}
