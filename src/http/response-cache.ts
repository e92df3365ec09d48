// A cache of whole GET answers, valid while the stored chain data has not changed: entries carry
// the data version they were computed at (the processor's committed log id, or a clock tick where
// this process does not ingest) and are dropped when it moves on. Bounded by bytes, least recently
// used out first. The reference API does the same with ETags keyed on its chain tip.

export interface CachedReply {
  status: number;
  body: string;
}

interface Entry extends CachedReply {
  version: number;
  bytes: number;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, version: number): CachedReply | undefined {
    const e = this.entries.get(key);
    if (!e || e.version !== version) {
      this.misses++;
      return undefined;
    }
    // Re-insert: Map order is the LRU order.
    this.entries.delete(key);
    this.entries.set(key, e);
    this.hits++;
    return e;
  }

  set(key: string, version: number, reply: CachedReply): void {
    const bytes = reply.body.length * 2 + key.length * 2 + 64;
    if (bytes > this.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
    this.entries.set(key, { ...reply, version, bytes });
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
  const mb = env.STACKS_API_RESPONSE_CACHE_MB === undefined || env.STACKS_API_RESPONSE_CACHE_MB === '' ? 64 : Number(env.STACKS_API_RESPONSE_CACHE_MB);
  return Number.isFinite(mb) && mb > 0 ? new ResponseCache(mb * 1024 * 1024) : undefined;
}
