// A payload's documents and facts in the serving store (whatever the block's fate): its tx
// documents and their events under placement ids, its block under its log id — both keys that only
// grow, so they are appended (LMDB's MDB_APPEND: the last page filled, not split in half) — the
// placements in the tx index, the block's hash and height keys, lock facts and ABIs.
import type { ServingStore } from './store.ts';
import type { ServingOp } from './changes.ts';
import type { TxIndexOverlay } from './tx-index-overlay.ts';
import { hashBytes } from './block-record.ts';
import { keyWith, u32Key } from './bytes.ts';

/** lmdb's put option (missing from its type declarations). */
const APPEND = { append: true } as unknown as number;

/**
 * The last placement id and log id the store holds, so an append is checked: LMDB refuses an
 * append whose key is not after the last one and lmdb reports it as a failed condition, not an
 * error — a write that would be lost silently is an error here instead.
 */
export class AppendedKeys {
  lastPid: number;
  lastBlock: number;

  constructor(store: ServingStore) {
    this.lastPid = lastKey(store.txDocs) ?? -1;
    this.lastBlock = lastKey(store.blocks) ?? -1;
  }

  batch(): AppendedBatch {
    return new AppendedBatch(this);
  }
}

export class AppendedBatch {
  lastPid: number;
  lastBlock: number;

  constructor(private readonly committedKeys: AppendedKeys) {
    this.lastPid = committedKeys.lastPid;
    this.lastBlock = committedKeys.lastBlock;
  }

  pid(pid: number): void {
    if (pid <= this.lastPid) throw new Error(`serving store: placement id ${pid} is not after ${this.lastPid}, the last one stored`);
    this.lastPid = pid;
  }

  block(logId: number): void {
    if (logId <= this.lastBlock) throw new Error(`serving store: the block of log entry ${logId} is not after ${this.lastBlock}'s, the last one stored`);
    this.lastBlock = logId;
  }

  committed(): void {
    this.committedKeys.lastPid = this.lastPid;
    this.committedKeys.lastBlock = this.lastBlock;
  }
}

function lastKey(db: { getKeys(o: object): Iterable<unknown> }): number | undefined {
  for (const k of db.getKeys({ reverse: true, limit: 1 })) return k as number;
  return undefined;
}

export function writeDocs(s: ServingStore, op: Extract<ServingOp, { op: 'docs' }>, abis: Map<string, { h: number; abi: string }>, txIndex: TxIndexOverlay, appended: AppendedBatch): void {
  const { served, pidBase, logId } = op;
  served.txs.forEach((t, i) => {
    const pid = pidBase + i;
    appended.pid(pid);
    void s.writes.txDocs.put(pid, t.packed.hot as Buffer, APPEND);
    void s.writes.txCold.put(pid, t.packed.cold as Buffer, APPEND);
    txIndex.addPlacement(t.doc.tx_id, pid);
    for (const [index, type, rest] of t.moreEvents ?? []) void s.txEvents.put([pid, index], [type, rest], APPEND);
  });
  for (const l of served.locks) {
    const f = l.fact;
    void s.locks.put([l.principal, f.block_height, l.microblock_sequence, l.tx_index, l.event_index, f.index_block_hash, f.microblock_hash], f);
  }
  const height = served.block?.block_height ?? 0;
  for (const [id, abi] of served.abis) {
    // As the reference reads it: the deploy with an ABI at the greatest height.
    const known = abis.get(id) ?? (s.abis.get(id) as { h: number; abi: string } | undefined);
    if (!known || height >= known.h) {
      abis.set(id, { h: height, abi });
      void s.abis.put(id, { h: height, abi });
    }
  }
  const b = served.block;
  if (b) {
    appended.block(logId);
    const ibh = hashBytes(b.index_block_hash);
    void s.writes.blocks.put(logId, b.record as Buffer, APPEND);
    void s.blockIndex.put(ibh, u32Key(logId));
    void s.blockHashes.put(keyWith(hashBytes(b.block_hash), logId), ibh);
    void s.heights.put(u32Key(b.block_height, logId), ibh);
    if (op.canonical === false) void s.nonCanonical.put(b.index_block_hash, b.block_height);
  }
}
