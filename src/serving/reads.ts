// Typed reads of the serving store's values: a tx document with its block frame, its events and raw
// bytes, the tx index, mempool documents, principal ids. Frames are cached per store: a list page's
// documents come from many blocks, and a block's frame never changes once written.
import type { ServingStore } from './store.ts';
import type { ColdDoc, MempoolDoc, TxDoc } from './docs.ts';
import { TX_FLAGS } from './docs.ts';
import { readColdDoc, readMempoolDoc, readTxDoc } from './codec.ts';
import { readBlockFrame, type BlockFrame } from './block-record.ts';
import { readTxRecord, txKey, type TxRecord } from './tx-index.ts';
import { PIDS_PER_ENTRY } from './changes.ts';
import { bytesHex, readU32 } from './bytes.ts';

const FRAMES_KEPT = 16_384;
const frameCaches = new WeakMap<ServingStore, Map<number, BlockFrame | null>>();

/** The frame of log entry `logId`'s block; undefined when the entry brought no block (microblocks). */
export function frameOf(s: ServingStore, logId: number): BlockFrame | undefined {
  let cache = frameCaches.get(s);
  if (!cache) frameCaches.set(s, (cache = new Map()));
  let f = cache.get(logId);
  if (f === undefined) {
    const b = s.blocks.getBinaryFast(logId);
    f = b ? readBlockFrame(b) : null;
    // Only frames found are kept: an entry's block is written with its documents, never later.
    if (b) {
      if (cache.size >= FRAMES_KEPT) cache.delete(cache.keys().next().value!);
      cache.set(logId, f);
    }
  }
  return f ?? undefined;
}

export const logIdOf = (pid: number): number => Math.floor(pid / PIDS_PER_ENTRY);

/** A stored tx placement: its document and where it is. */
export interface PlacedTxDoc {
  pid: number;
  doc: TxDoc;
  index_block_hash: string;
  microblock_hash: string;
  block_height: number;
  /** The block's placement members its body does not carry ('' when the body is complete). */
  placement: string;
}

/** `withCold`: its events and raw bytes too (the tx's own answers). */
export function placedDocOf(s: ServingStore, pid: number, withCold = false): PlacedTxDoc | undefined {
  const b = s.txDocs.getBinaryFast(pid);
  if (!b) return undefined;
  // Read whole before the cold part: its read reuses lmdb's buffer.
  const doc = readTxDoc(b);
  if (withCold) doc.cold = coldDocOf(s, pid);
  const place = placementOf(s, pid, doc);
  return { pid, doc, index_block_hash: place.index_block_hash, microblock_hash: doc.microblock_hash, block_height: place.block_height, placement: place.placement };
}

/** Where a document's placement is: its entry's block (the frame), or its own fields. `entryFrame`:
 *  the entry's frame when the caller read it already. */
export function placementOf(
  s: ServingStore,
  pid: number,
  doc: { flags: number; index_block_hash?: string; block_height?: number },
  entryFrame?: BlockFrame,
): Pick<PlacedTxDoc, 'index_block_hash' | 'block_height' | 'placement'> {
  const frame = doc.flags & (TX_FLAGS.OWN_PLACEMENT | TX_FLAGS.UNANCHORED) ? undefined : (entryFrame ?? frameOf(s, logIdOf(pid)));
  return {
    index_block_hash: frame ? frame.index_block_hash : (doc.index_block_hash ?? ''),
    block_height: frame ? frame.block_height : (doc.block_height ?? 0),
    placement: frame && !(doc.flags & TX_FLAGS.FULL_BODY) ? frame.placement : '',
  };
}

export function coldDocOf(s: ServingStore, pid: number): ColdDoc | undefined {
  const b = s.txCold.getBinaryFast(pid);
  return b ? readColdDoc(b) : undefined;
}

/** A tx id's key, or undefined for text that is no tx id (a request's: lmdb refuses an empty key,
 *  and no stored tx has such an id). */
function readKeyOf(txId: string): Buffer | undefined {
  const key = txKey(txId);
  return key.length === 32 ? key : undefined;
}

export function txRecordOf(s: ServingStore, txId: string): TxRecord | undefined {
  const key = readKeyOf(txId);
  const b = key && s.txs.getBinaryFast(key);
  return b ? readTxRecord(b) : undefined;
}

export function mempoolDocOf(s: ServingStore, txId: string): MempoolDoc | undefined {
  const key = readKeyOf(txId);
  const b = key && s.mempoolDocs.getBinaryFast(key);
  return b ? readMempoolDoc(b) : undefined;
}

/** A tx's raw bytes as hex: from a placement's document, else from its mempool document. */
export function rawTxOf(s: ServingStore, txId: string): string | undefined {
  const pids = txRecordOf(s, txId)?.pids ?? [];
  if (pids.length > 0) {
    const cold = coldDocOf(s, pids[pids.length - 1]);
    if (cold) return bytesHex(cold.raw);
  }
  const key = readKeyOf(txId);
  const b = key && s.mempoolDocs.getBinaryFast(key);
  return b ? bytesHex(readMempoolDoc(b).raw) : undefined;
}

/** A principal's id, if the store has seen it. */
export function principalIdOf(s: ServingStore, principal: string): number | undefined {
  const b = s.principals.getBinaryFast(principal);
  return b ? readU32(b) : undefined;
}
