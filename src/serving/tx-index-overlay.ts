// A batch's changes to the tx index (tx-index.ts): new placements and mempool status changes,
// gathered per tx and written once at the end, so a tx announced and mined in one batch gets one
// write with its final state, and no pending entry put and removed again.
//
// A pending tx's status is its pending entry (`pending`: what the mempool answers read, and kept in
// memory by the view); its record gets a mempool status only once it leaves the pending mempool
// (dropped, or confirmed: kept, with its receipt time, for a tx a reorg returns to the mempool).
// So a tx announced and mined in different batches writes its record once, not twice.
import type { ServingStore } from './store.ts';
import type { MempoolState, PendingEntry } from './docs.ts';
import type { ServingOp } from './changes.ts';
import { packTxRecord, readTxRecord, txKey, type TxRecord } from './tx-index.ts';

/** The pending mempool as the writer's last committed batch left it (its entries are few, and read
 *  for every mempool change: kept in memory instead of read from `pending`). */
export type PendingMirror = Map<string, PendingEntry>;

export function loadPendingMirror(store: ServingStore): PendingMirror {
  const out: PendingMirror = new Map();
  for (const { key, value } of store.pending.getRange()) out.set(key as string, value);
  return out;
}

/** A batch's changes of pending entries (null: removed), for the view once it committed. */
const batchPending = new WeakMap<object, Map<string, PendingEntry | null>>();
export const pendingChangesOf = (changes: object): Map<string, PendingEntry | null> | undefined => batchPending.get(changes);

interface Touched {
  key: Buffer;
  record: TxRecord;
  /** The record was stored before this batch. */
  existed: boolean;
  /** The record changed in this batch. */
  changed: boolean;
  /** Its mempool status now (read on its first change in this batch). */
  state?: MempoolState;
  /** It had a pending entry before this batch. */
  wasPending: boolean;
  pending: 'keep' | 'remove' | PendingEntry;
}

export class TxIndexOverlay {
  private readonly txs = new Map<string, Touched>();

  constructor(
    private readonly store: ServingStore,
    private readonly pending: PendingMirror,
  ) {}

  private touch(txId: string): Touched {
    let t = this.txs.get(txId);
    if (!t) {
      const key = txKey(txId);
      const b = this.store.txs.getBinaryFast(key);
      this.txs.set(txId, (t = { key, record: b ? readTxRecord(b) : { pids: [] }, existed: !!b, changed: false, wasPending: false, pending: 'keep' }));
    }
    return t;
  }

  addPlacement(txId: string, pid: number): void {
    const t = this.touch(txId);
    if (t.record.pids.includes(pid)) return;
    t.record.pids.push(pid);
    t.changed = true;
  }

  /** Whether the tx was ever in the mempool (so it may have a mempool document). */
  wasInMempool(txId: string): boolean {
    const t = this.touch(txId);
    return t.state !== undefined || t.record.mempool !== undefined || this.pending.has(txId);
  }

  /** The tx's mempool status before this batch's first change of it. */
  private statusBefore(txId: string, t: Touched): MempoolState | undefined {
    const p = this.pending.get(txId);
    t.wasPending = p !== undefined;
    return p ? { status: 'pending', reason: '', replaced_by: '', receipt_time: p.receipt_time, first_log_id: p.log_id } : t.record.mempool;
  }

  mempoolChange(op: Extract<ServingOp, { op: 'mempool' }>): void {
    const t = this.touch(op.tx_id);
    const prev = t.state ?? this.statusBefore(op.tx_id, t) ?? { status: op.status, reason: '', replaced_by: '', receipt_time: 0, first_log_id: op.logId };
    const state: MempoolState = { status: op.status, reason: op.reason, replaced_by: op.replaced_by, receipt_time: op.receipt_time ?? prev.receipt_time, first_log_id: prev.first_log_id };
    t.state = state;
    t.record.mempool = op.status === 'pending' ? undefined : state;
    t.changed = true;
    if (op.status !== 'pending') t.pending = 'remove';
    else if (op.entry) t.pending = { ...op.entry, receipt_time: state.receipt_time, log_id: state.first_log_id };
  }

  /** Issues the writes; `changes`: the batch, to which its pending changes are handed (committed). */
  flush(changes: object, tick: () => void = () => {}): void {
    const s = this.store;
    const pendingChanges = new Map<string, PendingEntry | null>();
    batchPending.set(changes, pendingChanges);
    for (const [txId, t] of this.txs) {
      tick();
      if (t.changed) {
        // A record with nothing in it (a tx pending again) is not kept.
        if (t.record.pids.length > 0 || t.record.mempool) void s.txs.put(t.key, packTxRecord(t.record) as Buffer);
        else if (t.existed) void s.txs.remove(t.key);
      }
      // A pending entry is only ever put with a status: a tx first seen in this batch has none stored.
      if (t.pending === 'remove') {
        if (t.wasPending) void s.pending.remove(txId);
        pendingChanges.set(txId, null);
      } else if (t.pending !== 'keep') {
        void s.pending.put(txId, t.pending);
        pendingChanges.set(txId, t.pending);
      }
    }
  }

  /** After the batch committed: the writer's mirror moves on. */
  committed(changes: object): void {
    for (const [txId, e] of pendingChangesOf(changes) ?? []) {
      if (e) this.pending.set(txId, e);
      else this.pending.delete(txId);
    }
  }
}
