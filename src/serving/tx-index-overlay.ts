// A batch's changes to the tx index (tx-index.ts): new placements and mempool status changes,
// gathered per tx and written once at the end, so a tx announced and mined in one batch gets one
// write with its final state, and no pending entry put and removed again.
import type { ServingStore } from './store.ts';
import type { PendingEntry } from './docs.ts';
import type { ServingOp } from './changes.ts';
import { packTxRecord, readTxRecord, txKey, type TxRecord } from './tx-index.ts';

interface Touched {
  key: Buffer;
  record: TxRecord;
  /** It had a mempool status before this batch (so it may have a pending entry to remove). */
  hadMempool: boolean;
  pending: 'keep' | 'remove' | PendingEntry;
}

export class TxIndexOverlay {
  private readonly txs = new Map<string, Touched>();

  constructor(private readonly store: ServingStore) {}

  private touch(txId: string): Touched {
    let t = this.txs.get(txId);
    if (!t) {
      const key = txKey(txId);
      const b = this.store.txs.getBinaryFast(key);
      const record = b ? readTxRecord(b) : { pids: [] };
      this.txs.set(txId, (t = { key, record, hadMempool: record.mempool !== undefined, pending: 'keep' }));
    }
    return t;
  }

  addPlacement(txId: string, pid: number): void {
    const { pids } = this.touch(txId).record;
    if (!pids.includes(pid)) pids.push(pid);
  }

  mempoolChange(op: Extract<ServingOp, { op: 'mempool' }>): void {
    const t = this.touch(op.tx_id);
    const prev = t.record.mempool ?? { status: op.status, reason: '', replaced_by: '', receipt_time: 0, first_log_id: op.logId };
    const state = { status: op.status, reason: op.reason, replaced_by: op.replaced_by, receipt_time: op.receipt_time ?? prev.receipt_time, first_log_id: prev.first_log_id };
    t.record.mempool = state;
    if (op.status !== 'pending') t.pending = 'remove';
    else if (op.entry) t.pending = { ...op.entry, receipt_time: state.receipt_time, log_id: state.first_log_id };
  }

  flush(): void {
    const s = this.store;
    for (const [txId, t] of this.txs) {
      void s.txs.put(t.key, packTxRecord(t.record) as Buffer);
      // A pending entry is only ever put with a state: a tx first seen in this batch has none stored.
      if (t.pending === 'remove') {
        if (t.hadMempool) void s.pending.remove(txId);
      } else if (t.pending !== 'keep') void s.pending.put(txId, t.pending);
    }
  }
}
