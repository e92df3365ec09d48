// A batch's net changes of the current pending mempool (mempool_pending, sql/0003). Rows of one
// batch become visible together, so a tx that enters and leaves the pending set within a batch
// (most txs of a bulk import: announced and mined a few blocks apart) needs no row at all; only
// the state at the batch's end is written. On a 1M-tx import this is ~2M rows fewer.

export type PendingRow = {
  tx_id: string;
  principals: string[];
  version: number;
  is_deleted: 0 | 1;
};

export class PendingSetChanges {
  /** tx_id -> whether it was pending before this batch, and its newest row in the batch. */
  private readonly changes = new Map<string, { before: boolean; row: PendingRow }>();

  /** A tx not pending becomes pending. */
  enter(tx_id: string, version: number, principals: string[]): void {
    this.set(tx_id, false, { tx_id, principals, version, is_deleted: 0 });
  }

  /** A pending tx stops being pending (mined, dropped). */
  leave(tx_id: string, version: number): void {
    this.set(tx_id, true, { tx_id, principals: [], version, is_deleted: 1 });
  }

  /** The first change of a tx in the batch tells whether it was pending before the batch. */
  private set(tx_id: string, pendingBefore: boolean, row: PendingRow): void {
    const before = this.changes.get(tx_id)?.before ?? pendingBefore;
    this.changes.set(tx_id, { before, row });
  }

  /** Rows that change the stored set: entries still pending, and leaves of txs pending before.
   *  Taken once: the changes are cleared. */
  takeRows(): PendingRow[] {
    const out: PendingRow[] = [];
    for (const { before, row } of this.changes.values()) if (row.is_deleted === 0 || before) out.push(row);
    this.changes.clear();
    return out;
  }
}
