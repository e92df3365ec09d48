// The committed chain as answers see it, in memory: which blocks are not canonical (forks, the boot
// block: a small set), the tip, the pending mempool, and counters. It moves only when a batch's
// serving writes have committed, so it never runs ahead of the documents it describes.
import type { ServingStore, MicroblockRef } from './store.ts';
import { appliedMarker } from './store.ts';
import type { PendingEntry } from './docs.ts';
import type { ServingChanges } from './changes.ts';
import { pendingChangesOf } from './tx-index-overlay.ts';
import { EMPTY_VIEW, type ViewMeta } from './writer.ts';

export class ServingView {
  readonly nonCanonical = new Set<string>();
  readonly pending = new Map<string, PendingEntry>();
  /** principal -> pending txs naming it. */
  private readonly pendingByPrincipal = new Map<string, Set<string>>();
  meta: ViewMeta = EMPTY_VIEW;
  appliedLogId = 0;
  /** The log entry ClickHouse has stored through; the store answers once it has caught up to it. */
  private storedThrough: () => number = () => 0;
  /** Called after each batch's writes committed (the real-time hub: src/realtime). */
  private readonly commitListeners = new Set<(logTo: number) => void>();
  /** Batches whose writes began and ended (ClickHouse first, then this store): while one is under
   *  way, ClickHouse may hold rows this view does not describe yet, and an answer read then may lack
   *  an object it has before and after. */
  batchesBegun = 0;
  batchesEnded = 0;
  private readonly quietWaiters = new Set<() => void>();

  constructor(readonly store: ServingStore) {}

  /** Reads the committed state (at start, or to follow another writer). */
  load(): this {
    this.nonCanonical.clear();
    for (const key of this.store.nonCanonical.getKeys()) this.nonCanonical.add(key as string);
    this.pending.clear();
    this.pendingByPrincipal.clear();
    for (const { value } of this.store.pending.getRange()) this.setPending(value);
    this.meta = { ...EMPTY_VIEW, ...((this.store.meta.get('view') as ViewMeta | undefined) ?? {}) };
    this.appliedLogId = appliedMarker(this.store).logId;
    return this;
  }

  /** Answers come from the store only while it covers everything ClickHouse holds. */
  followStoredThrough(through: () => number): void {
    this.storedThrough = through;
  }

  get ready(): boolean {
    return this.appliedLogId >= this.storedThrough();
  }

  /** After a batch's writes committed. */
  committed(changes: ServingChanges, meta: ViewMeta, logTo: number): void {
    this.store.env.resetReadTxn();
    // The pending entries the writer wrote (a follower's view of another writer reads them).
    const pending = pendingChangesOf(changes);
    for (const op of changes.ops) {
      if (op.op === 'canonical') {
        if (op.canonical) this.nonCanonical.delete(op.index_block_hash);
        else this.nonCanonical.add(op.index_block_hash);
      } else if (op.op === 'docs' && op.canonical === false && op.served.block) {
        this.nonCanonical.add(op.served.block.index_block_hash);
      } else if (op.op === 'mempool') {
        const entry = pending?.has(op.tx_id) ? pending.get(op.tx_id) : this.store.pending.get(op.tx_id);
        this.deletePending(op.tx_id);
        if (entry) this.setPending(entry);
      }
    }
    this.meta = meta;
    this.appliedLogId = logTo;
    for (const listener of this.commitListeners) listener(logTo);
  }

  /** The processor starts writing a batch. */
  beginBatch(): void {
    this.batchesBegun++;
  }

  /** The processor's batch writes ended (committed or failed). */
  endBatch(): void {
    this.batchesEnded++;
    if (this.batchesEnded < this.batchesBegun) return;
    for (const wake of this.quietWaiters) wake();
    this.quietWaiters.clear();
  }

  /** Resolves when no batch is being written (at once if none is), or after `timeoutMs`. */
  quiet(timeoutMs: number): Promise<void> {
    if (this.batchesEnded >= this.batchesBegun) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.quietWaiters.delete(wake) && resolve(), timeoutMs);
      const wake = () => (clearTimeout(timer), resolve());
      this.quietWaiters.add(wake);
    });
  }

  onCommitted(listener: (logTo: number) => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  private setPending(e: PendingEntry): void {
    this.pending.set(e.tx_id, e);
    for (const p of e.principals) {
      let set = this.pendingByPrincipal.get(p);
      if (!set) this.pendingByPrincipal.set(p, (set = new Set()));
      set.add(e.tx_id);
    }
  }

  private deletePending(txId: string): void {
    const e = this.pending.get(txId);
    if (!e) return;
    this.pending.delete(txId);
    for (const p of e.principals) {
      const set = this.pendingByPrincipal.get(p);
      set?.delete(txId);
      if (set?.size === 0) this.pendingByPrincipal.delete(p);
    }
  }

  /** Pending txs naming the principal (sender, sponsor, recipient, called contract). */
  pendingOf(principal: string): PendingEntry[] {
    return [...(this.pendingByPrincipal.get(principal) ?? [])].map((id) => this.pending.get(id)!);
  }

  /** A stored block is canonical unless it is in the small non-canonical set. */
  isCanonical(indexBlockHash: string): boolean {
    return indexBlockHash !== '' && !this.nonCanonical.has(indexBlockHash);
  }

  microblock(hash: string): MicroblockRef | undefined {
    return this.store.microblocks.get(hash);
  }

  /** A placement's canonical flags as the reference shows them (anchored placements only). */
  placementFlags(p: { index_block_hash: string; microblock_hash: string }): { canonical: boolean; microblock_canonical: boolean } {
    const canonical = this.isCanonical(p.index_block_hash);
    if (!p.microblock_hash) return { canonical, microblock_canonical: true };
    const m = this.microblock(p.microblock_hash);
    return { canonical, microblock_canonical: !!m && m.canonical && m.index_block_hash === p.index_block_hash };
  }

  /** Whether a principal's lists could not be kept exactly (then it is answered from ClickHouse). */
  isDirty(principal: string): boolean {
    return this.store.meta.get(`dirty:${principal}`) === true;
  }

  /** Unconfirmed microblocks are streamed on the tip: answers that include them come from ClickHouse. */
  get hasLiveMicroblocks(): boolean {
    return this.meta.liveMicroblocks.length > 0;
  }
}
