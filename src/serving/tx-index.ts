// Tx id -> what the serving store knows of the tx, in one value under the id's 32 bytes: its
// placements (placement ids; their blocks and documents are found from those) and its mempool
// status once it left the pending mempool (a pending tx's is its pending entry). About one
// random-key write per tx, where placements, mempool states (a write per status change) and raw
// bytes were three structures of their own.
import { ByteReader, ByteWriter, bytesHex, hexBytes } from './bytes.ts';
import type { MempoolState } from './docs.ts';
import { PIDS_PER_ENTRY } from './changes.ts';

export interface TxRecord {
  /** Placement ids, in the order they were stored. */
  pids: number[];
  mempool?: MempoolState;
}

const STATUS: Array<MempoolState['status']> = ['pending', 'dropped', 'confirmed'];

export const txKey = (txId: string): Buffer => hexBytes(txId);

const scratch = new ByteWriter(128);

export function packTxRecord(t: TxRecord): Uint8Array {
  const w = scratch.reset().uint(t.pids.length);
  for (const pid of t.pids) {
    const logId = Math.floor(pid / PIDS_PER_ENTRY);
    w.uint(logId).uint(pid - logId * PIDS_PER_ENTRY);
  }
  const m = t.mempool;
  if (m) {
    w.u8(STATUS.indexOf(m.status) + 1).str(m.reason);
    if (m.replaced_by) w.u8(1).raw(hexBytes(m.replaced_by));
    else w.u8(0);
    w.uint(m.receipt_time).uint(m.first_log_id);
  }
  return w.bytes();
}

/** `end`: the value's length (lmdb's reused buffer is longer). */
export function readTxRecord(bytes: Uint8Array): TxRecord {
  const r = new ByteReader(bytes);
  const n = r.uint();
  const pids: number[] = [];
  for (let i = 0; i < n; i++) pids.push(r.uint() * PIDS_PER_ENTRY + r.uint());
  if (r.done) return { pids };
  const status = STATUS[r.u8() - 1];
  const reason = r.str();
  const replaced_by = r.u8() === 1 ? bytesHex(r.raw(32)) : '';
  return { pids, mempool: { status, reason, replaced_by, receipt_time: r.uint(), first_log_id: r.uint() } };
}
