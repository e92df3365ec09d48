// The serving store's documents travel as bytes: packed (MessagePack arrays) and LZ4-compressed
// against a preset dictionary by the decode workers, off the main thread, which stores them as they
// are; lmdb decompresses them natively when an answer reads them (store.ts opens those databases
// with the same dictionaries). A list page unpacks 50 documents: arrays skip decoding a key per
// member, and a document compressed against the dictionary is a third of its size (bench/RESULTS.md).
// A tx document is two values (PackedTxDoc): lists read only its hot part.
import { Packr } from 'msgpackr';
import type { CallPart, ColdDoc, MempoolDoc, StoredEvent, TxDoc } from './docs.ts';
import { TX_FLAGS } from './docs.ts';
import { compressValue, decompressValue } from './lz4.ts';
import { DOC_DICTIONARY } from './dictionaries.ts';

const packr = new Packr({ useRecords: false });

export const pack = (value: unknown): Buffer => packr.pack(value);
export const unpack = <T>(bytes: Uint8Array): T => packr.unpack(bytes) as T;

type TxDocTuple = [number, string, CallPart | null, number, string, string, string, number, number, string?, number?];

/** A tx document as the serving store keeps it: two values under its placement id, each compressed
 *  against DOC_DICTIONARY. `hot`: what lists show; `cold`: its events and raw bytes, which only the
 *  tx's own answers read (45% of a document's bytes: a list page decompressed them for nothing). */
export interface PackedTxDoc {
  hot: Uint8Array;
  cold: Uint8Array;
}

/** The hot tuple before compression (the dictionary builder samples these). */
export function packTxDocPlain(d: TxDoc): Uint8Array {
  const t: TxDocTuple = [d.flags, d.body, d.call ?? null, d.event_count, d.sender_address, d.fee_rate, d.microblock_hash, d.microblock_sequence, d.tx_index];
  if (d.flags & TX_FLAGS.OWN_PLACEMENT) t.push(d.index_block_hash ?? '', d.block_height ?? 0);
  return packr.pack(t);
}

/** The cold part before compression. */
export const packColdPlain = (c: ColdDoc | undefined): Uint8Array => packr.pack(c ? [c.events, c.raw] : [[], new Uint8Array(0)]);

export const packTxDoc = (d: TxDoc): PackedTxDoc => ({ hot: compressValue(packTxDocPlain(d), DOC_DICTIONARY), cold: compressValue(packColdPlain(d.cold), DOC_DICTIONARY) });

/** A document's cold part as lmdb returns it (decompressed). */
export function readColdDoc(bytes: Uint8Array): ColdDoc {
  const [events, raw] = packr.unpack(bytes) as [StoredEvent[], Uint8Array];
  // A copy: the bytes may be lmdb's buffer, which its next read reuses.
  return { events, raw: Uint8Array.prototype.slice.call(raw) };
}

/** A tx document's hot part as lmdb returns it (decompressed). */
export function readTxDoc(bytes: Uint8Array): TxDoc {
  const [flags, body, call, event_count, sender_address, fee_rate, microblock_hash, microblock_sequence, tx_index, ibh, height] = packr.unpack(bytes) as TxDocTuple;
  const doc: TxDoc = { flags, body, event_count, sender_address, fee_rate, microblock_hash, microblock_sequence, tx_index };
  if (call) doc.call = call;
  if (flags & TX_FLAGS.OWN_PLACEMENT) {
    doc.index_block_hash = ibh;
    doc.block_height = height;
  }
  return doc;
}

/** A tx document as packTxDoc made it, events and raw bytes included (the processor's re-render of
 *  a streamed tx's index, the real-time journal's NFT events of a batch, tests). */
export function unpackTxDoc(p: PackedTxDoc): TxDoc {
  const doc = readTxDoc(decompressValue(p.hot, DOC_DICTIONARY));
  doc.cold = readColdDoc(decompressValue(p.cold, DOC_DICTIONARY));
  return doc;
}

/** The tx id of a document (its body's first member, `"tx_id":"0x…"`). */
export const txIdOf = (doc: Pick<TxDoc, 'body'>): string => doc.body.slice(9, 75);

/** An event's JSON as the API renders it. */
export const eventJson = (txId: string, [index, type, rest]: StoredEvent): string => `{"event_index":${index},"event_type":"${type}","tx_id":"${txId}",${rest}}`;

/** An event's JSON -> as stored (its members after `tx_id`); undefined when it is not shaped so. */
export function storedEvent(index: number, type: string, txId: string, json: string): StoredEvent | undefined {
  const head = `{"event_index":${index},"event_type":"${type}","tx_id":"${txId}",`;
  return json.startsWith(head) && json.endsWith('}') ? [index, type, json.slice(head.length, -1)] : undefined;
}

export function packMempoolDoc(d: MempoolDoc): Uint8Array {
  return compressValue(packr.pack([d.body, d.call ?? null, d.raw]), DOC_DICTIONARY);
}

export function readMempoolDoc(bytes: Uint8Array): MempoolDoc {
  const [body, call, raw] = packr.unpack(bytes) as [string, CallPart | null, Uint8Array];
  const doc: MempoolDoc = { body, raw: Uint8Array.prototype.slice.call(raw) };
  if (call) doc.call = call;
  return doc;
}
