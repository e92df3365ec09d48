// The mempool window: user txs are created ahead of the block that mines them (FIFO, so creation
// order = execution order) and announced in /new_mempool_tx batches when they arrive; some are
// replaced by fee (the lower-fee original is announced, then dropped with reason ReplaceByFee and
// new_txid), some never-minable ones are garbage-collected later (/drop_mempool_tx with
// StaleGarbageCollect or TooExpensive). Memory: the window, the deferred replacements and the
// scheduled drops only.
import type { Era, TxFactory } from './activity.ts';
import type { GenTx } from './events.ts';
import type { Rng } from './rng.ts';

export interface MempoolOptions {
  /** Share of user txs announced to the mempool before they are mined (others arrive in blocks only). */
  announceShare: number;
  /** Per user tx: chance it replaced an earlier, lower-fee version of itself. */
  rbfRate: number;
  /** Per user tx: chance one never-minable tx (nonce gap) is also announced, and dropped some blocks later. */
  staleRate: number;
  /** Largest /new_mempool_tx batch. */
  maxBatch: number;
}

export interface Emit {
  path: string;
  body: unknown;
}

export class Mempool {
  private queue: GenTx[] = [];
  private head = 0;
  private deferred: Array<{ original: string; tx: GenTx }> = [];
  private readonly drops = new Map<number, Array<{ txid: string; reason: string }>>();
  readonly stats = { announced: 0, replaced: 0, stale: 0, dropped: 0 };

  constructor(
    private readonly opts: MempoolOptions,
    private readonly rng: Rng,
    private readonly factory: TxFactory,
  ) {}

  get size(): number {
    return this.queue.length - this.head;
  }

  /** The next `n` txs in execution order (fewer if the window holds fewer). */
  take(n: number): GenTx[] {
    const out = this.queue.slice(this.head, this.head + n);
    this.head += out.length;
    for (const tx of out) tx.unsigned = undefined;
    if (this.head > 4096 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return out;
  }

  /**
   * Mempool traffic before block number `seq`: due drops, deferred replacements, then `create` new
   * txs (at most), announced in batches. `minDepth`: a replacement is only deferred for txs that
   * will not be mined in the very next block.
   */
  refill(era: Era, seq: number, create: number, minDepth: number): Emit[] {
    const out: Emit[] = [];
    for (const [due, list] of this.drops) {
      if (due > seq) continue;
      this.drops.delete(due);
      for (const reason of ['StaleGarbageCollect', 'TooExpensive']) {
        const ids = list.filter((d) => d.reason === reason).map((d) => d.txid);
        if (ids.length) out.push({ path: '/drop_mempool_tx', body: { reason, new_txid: null, dropped_txids: ids } });
        this.stats.dropped += ids.length;
      }
    }
    const announce: string[] = [];
    for (const { original, tx } of this.deferred) {
      out.push({ path: '/drop_mempool_tx', body: { reason: 'ReplaceByFee', new_txid: tx.txid, dropped_txids: [original] } });
      out.push({ path: '/new_mempool_tx', body: [tx.raw] });
      this.stats.announced++;
    }
    this.deferred = [];
    for (let i = 0; i < create; i++) {
      const tx = this.factory.next(era);
      this.queue.push(tx);
      if (this.rng.chance(this.opts.staleRate)) {
        const stale = this.factory.staleTx(era, this.rng.range(2, 10));
        announce.push(stale.raw);
        const due = seq + this.rng.range(3, 30);
        const list = this.drops.get(due) ?? [];
        list.push({ txid: stale.txid, reason: this.rng.chance(0.85) ? 'StaleGarbageCollect' : 'TooExpensive' });
        this.drops.set(due, list);
        this.stats.stale++;
      }
      if (!this.rng.chance(this.opts.announceShare)) continue;
      if (this.size > minDepth && this.rng.chance(this.opts.rbfRate)) {
        const original = this.factory.replacedOriginal(tx);
        announce.push(original.raw);
        this.deferred.push({ original: original.txid, tx });
        this.stats.replaced++;
        continue;
      }
      announce.push(tx.raw);
    }
    this.stats.announced += announce.length;
    for (let i = 0; i < announce.length; ) {
      const n = Math.min(announce.length - i, 1 + Math.floor(Math.pow(this.rng.float(), 2) * this.opts.maxBatch));
      out.push({ path: '/new_mempool_tx', body: announce.slice(i, i + n) });
      i += n;
    }
    return out;
  }
}
