// The serving store's documents travel as MessagePack bytes: packed by the decode workers (off the
// main thread, which issues the writes) and stored as they are; unpacked when an answer reads them.
import { Packr } from 'msgpackr';
import type { TxDoc } from './docs.ts';

const packr = new Packr({ useRecords: false });

export const pack = (value: unknown): Buffer => packr.pack(value);
export const unpack = <T>(bytes: Uint8Array): T => packr.unpack(bytes) as T;

// A tx document is packed as an array in this order: a list page unpacks 50 of them, and an array
// skips decoding a key per member (half the unpack time of a map, measured). Documents stored
// before were maps, and still read as they are.
type TxDocTuple = [string, string, string, number, number, number, string, TxDoc['call'] | null, TxDoc['events'], number, string, string, boolean];

export function packTxDoc(d: TxDoc): Buffer {
  const t: TxDocTuple = [d.tx_id, d.index_block_hash, d.microblock_hash, d.block_height, d.microblock_sequence, d.tx_index, d.body, d.call ?? null, d.events, d.event_count, d.sender_address, d.fee_rate, d.unanchored];
  return packr.pack(t);
}

export function unpackTxDoc(bytes: Uint8Array): TxDoc {
  const value = packr.unpack(bytes) as TxDocTuple | TxDoc;
  if (!Array.isArray(value)) return value;
  const [tx_id, index_block_hash, microblock_hash, block_height, microblock_sequence, tx_index, body, call, events, event_count, sender_address, fee_rate, unanchored] = value;
  const doc: TxDoc = { tx_id, index_block_hash, microblock_hash, block_height, microblock_sequence, tx_index, body, events, event_count, sender_address, fee_rate, unanchored };
  if (call) doc.call = call;
  return doc;
}
