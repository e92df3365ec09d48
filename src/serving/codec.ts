// The serving store's documents travel as bytes: packed (MessagePack arrays) and LZ4-compressed
// against a preset dictionary by the decode workers, off the main thread, which stores them as they
// are; lmdb decompresses them natively when an answer reads them (store.ts opens those databases
// with the same dictionaries). A list page unpacks 50 documents: arrays skip decoding a key per
// member, and a document compressed against the dictionary is a third of its size (bench/RESULTS.md).
import { Packr } from 'msgpackr';
import type { CallPart, ColdDoc, MempoolDoc, StoredEvent, TxDoc } from './docs.ts';
import { TX_FLAGS } from './docs.ts';
import { compressValue, decompressValue } from './lz4.ts';
import { DOC_DICTIONARY } from './dictionaries.ts';

const packr = new Packr({ useRecords: false });

export const pack = (value: unknown): Buffer => packr.pack(value);
export const unpack = <T>(bytes: Uint8Array): T => packr.unpack(bytes) as T;

type TxDocTuple = [number, string, CallPart | null, number, string, string, string, number, number, Uint8Array, string?, number?];

/** The tuple before compression (the dictionary builder samples these). Its events and raw bytes
 *  are packed apart, as bytes inside the tuple: a list page unpacks the tuple, not them. */
export function packTxDocPlain(d: TxDoc): Uint8Array {
  const cold = packr.pack(d.cold ? [d.cold.events, d.cold.raw] : [[], new Uint8Array(0)]);
  const t: TxDocTuple = [d.flags, d.body, d.call ?? null, d.event_count, d.sender_address, d.fee_rate, d.microblock_hash, d.microblock_sequence, d.tx_index, cold];
  if (d.flags & TX_FLAGS.OWN_PLACEMENT) t.push(d.index_block_hash ?? '', d.block_height ?? 0);
  return packr.pack(t);
}

export const packTxDoc = (d: TxDoc): Uint8Array => compressValue(packTxDocPlain(d), DOC_DICTIONARY);

function readCold(bytes: Uint8Array): ColdDoc {
  const [events, raw] = packr.unpack(bytes) as [StoredEvent[], Uint8Array];
  // A copy: the bytes may be lmdb's buffer, which its next read reuses.
  return { events, raw: Uint8Array.prototype.slice.call(raw) };
}

/** A tx document as lmdb returns it (decompressed); its events and raw bytes only with `withCold`. */
export function readTxDoc(bytes: Uint8Array, withCold = false): TxDoc {
  const [flags, body, call, event_count, sender_address, fee_rate, microblock_hash, microblock_sequence, tx_index, cold, ibh, height] = packr.unpack(bytes) as TxDocTuple;
  const doc: TxDoc = { flags, body, event_count, sender_address, fee_rate, microblock_hash, microblock_sequence, tx_index };
  if (call) doc.call = call;
  if (flags & TX_FLAGS.OWN_PLACEMENT) {
    doc.index_block_hash = ibh;
    doc.block_height = height;
  }
  if (withCold) doc.cold = readCold(cold);
  return doc;
}

/** A tx document as packTxDoc made it, events and raw bytes included (the processor's re-render of
 *  a streamed tx's index, the real-time journal's NFT events of a batch, tests). */
export const unpackTxDoc = (bytes: Uint8Array): TxDoc => readTxDoc(decompressValue(bytes, DOC_DICTIONARY), true);

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
