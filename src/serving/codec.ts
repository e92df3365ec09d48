// The serving store's documents travel as MessagePack bytes: packed by the decode workers (off the
// main thread, which issues the writes) and stored as they are; unpacked when an answer reads them.
import { Packr } from 'msgpackr';
import type { AssetEvent, PrincipalTxFact, TxDoc } from './docs.ts';

const packr = new Packr({ useRecords: false });

export const pack = (value: unknown): Buffer => packr.pack(value);
export const unpack = <T>(bytes: Uint8Array): T => packr.unpack(bytes) as T;

// Tx documents and principal facts are packed as arrays in these orders: a list page unpacks 50 of
// them, and an array skips decoding a key per member (a half to a third of the unpack time of a map,
// measured). Values stored before were maps, and still read as they are.
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

type AssetEventTuple = [number, AssetEvent['kind'], string, string, string, string, string, string];
type PrincipalFactTuple = [number, string, string, AssetEventTuple[], number | null, number | null, number, number, number, string];

export function packPrincipalFact(f: PrincipalTxFact): Buffer {
  const events = f.events.map((e): AssetEventTuple => [e.event_index, e.kind, e.asset_event_type, e.asset_identifier, e.sender, e.recipient, e.amount, e.value]);
  const t: PrincipalFactTuple = [f.roles, f.stx_sent, f.stx_received, events, f.nonce ?? null, f.sponsor_nonce ?? null, f.block_height, f.microblock_sequence, f.tx_index, f.tx_id];
  return packr.pack(t);
}

export function unpackPrincipalFact(bytes: Uint8Array): PrincipalTxFact {
  const value = packr.unpack(bytes) as PrincipalFactTuple | PrincipalTxFact;
  if (!Array.isArray(value)) return value;
  const [roles, stx_sent, stx_received, tuples, nonce, sponsor_nonce, block_height, microblock_sequence, tx_index, tx_id] = value;
  const events = tuples.map(([event_index, kind, asset_event_type, asset_identifier, sender, recipient, amount, value]): AssetEvent => ({ event_index, kind, asset_event_type, asset_identifier, sender, recipient, amount, value }));
  const fact: PrincipalTxFact = { roles, stx_sent, stx_received, events, block_height, microblock_sequence, tx_index, tx_id };
  if (nonce !== null) fact.nonce = nonce;
  if (sponsor_nonce !== null) fact.sponsor_nonce = sponsor_nonce;
  return fact;
}
