// Transaction answers from the serving store: stored documents with their block's placement
// members, the canonical flags of the committed view, the called contract's ABI and the asked events
// page added. `undefined` means "not answerable from the store" (the caller asks ClickHouse):
// unconfirmed microblock placements, a store still catching up.
import { INLINE_EVENTS, TX_FLAGS, type CallPart, type MempoolDoc, type MempoolState } from '../../serving/docs.ts';
import { coldDocOf, frameOf, logIdOf, mempoolDocOf, placedDocOf, placementOf, txRecordOf, type PlacedTxDoc } from '../../serving/reads.ts';
import { readTxDocListFields } from '../../serving/tx-doc-list.ts';
import type { JsonBytesWriter } from '../../server/json-bytes.ts';
import { eventJson, txIdOf, unpack } from '../../serving/codec.ts';
import { mempoolTxStatus } from '../../render/tx.ts';
import { isoTime } from '../../render/values.ts';
import { callJson, writeCallWithoutAbi } from './served-call.ts';
import type { Serving } from '../reads/source.ts';

export interface RenderOpts {
  /** Render contract calls with the called contract's ABI (the reference's v2 lists do not). */
  withAbi?: boolean;
  excludeFunctionArgs?: boolean;
  /** The events page; none: `events: []`. */
  events?: { offset: number; limit: number };
}

/** The events page of a placement as JSON array members. */
function eventsJson(s: Serving, p: PlacedTxDoc, page: { offset: number; limit: number } | undefined): string {
  const { doc } = p;
  if (!page || page.limit <= 0 || doc.event_count <= page.offset) return '';
  const txId = txIdOf(doc);
  const hi = page.offset + page.limit;
  const out: string[] = [];
  if (hi <= INLINE_EVENTS || doc.event_count <= INLINE_EVENTS) {
    for (const e of (p.doc.cold ?? coldDocOf(s.store, p.pid))?.events ?? []) if (e[0] >= page.offset && e[0] < hi) out.push(eventJson(txId, e));
    return out.join(',');
  }
  for (const { key, value } of s.store.txEvents.getRange({ start: [p.pid, page.offset], end: [p.pid, hi] })) {
    out.push(eventJson(txId, [(key as [number, number])[1], value[0], value[1]]));
  }
  return out.join(',');
}

/** A mined placement's tx object as JSON text. */
export function minedTxJson(s: Serving, p: PlacedTxDoc, opts: RenderOpts = {}): string {
  const { doc } = p;
  const flags = s.view.placementFlags(p);
  const placement = p.placement ? `${p.placement},` : '';
  return `{"canonical":${flags.canonical},"microblock_canonical":${flags.microblock_canonical},${placement}${doc.body}${callMember(s, doc.call, opts)},"events":[${eventsJson(s, p, opts.events)}]}`;
}

const callMember = (s: Serving, call: CallPart | null | undefined, opts: RenderOpts): string =>
  call ? `,"contract_call":${callJson(s.store, call, { withAbi: opts.withAbi !== false, excludeFunctionArgs: !!opts.excludeFunctionArgs })}` : '';

/**
 * A mined placement's list item (minedTxJson without events) written as bytes: its stored body is
 * copied as it is stored, never decoded. Its canonical flags (2: canonical, 1: microblock_canonical),
 * or -1 when the placement is not stored.
 */
export function writeMinedTxItem(s: Serving, pid: number, w: JsonBytesWriter, opts: Omit<RenderOpts, 'events'> = {}): number {
  // The frame first: reading it would reuse the buffer lmdb returned the document in.
  const frame = frameOf(s.store, logIdOf(pid));
  let bytes = s.store.txDocs.getBinaryFast(pid);
  if (!bytes) return -1;
  const d = readTxDocListFields(bytes);
  // A microblock's flags read the store too (rare: epoch 2.x streams), and so does an ABI: then the
  // document is copied (through a view of the value's size: lmdb sets `length` over its longer
  // reused buffer).
  const withAbi = opts.withAbi !== false && d.callEnd > d.callStart;
  if (d.microblock_hash || withAbi) bytes = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length).slice() as Buffer;
  const place = placementOf(s.store, pid, d, frame);
  const flags = s.view.placementFlags({ index_block_hash: place.index_block_hash, microblock_hash: d.microblock_hash });
  const bits = (flags.canonical ? 2 : 0) | (flags.microblock_canonical ? 1 : 0);
  // The flags and the block's members, shared by its txs: encoded once per cached frame.
  if (place.placement && frame && place.placement === frame.placement) w.bytes(((frame.itemHeads ??= [])[bits] ??= Buffer.concat([HEADS[bits], Buffer.from(`${frame.placement},`)])));
  else {
    w.bytes(HEADS[bits]);
    if (place.placement) w.text(`${place.placement},`);
  }
  w.bytes(bytes, d.bodyStart, d.bodyEnd);
  if (withAbi) w.text(callMember(s, unpack<CallPart>(bytes.subarray(d.callStart, d.callEnd)), opts));
  else if (d.callEnd > d.callStart) writeCallWithoutAbi(w.bytes(CONTRACT_CALL), bytes, d.callStart, d.callEnd, !!opts.excludeFunctionArgs);
  w.bytes(NO_EVENTS);
  return bits;
}

const ascii = (s: string): Uint8Array => Buffer.from(s, 'latin1');
/** A list item's opening by its flags (2: canonical, 1: microblock_canonical), as bytes. */
const HEADS = [0, 1, 2, 3].map((bits) => ascii(`{"canonical":${bits >= 2},"microblock_canonical":${(bits & 1) === 1},`));
const CONTRACT_CALL = ascii(',"contract_call":');
const NO_EVENTS = ascii(',"events":[]}');

/** A mempool tx's object as JSON text, with its status as given. */
export function mempoolTxJson(s: Serving, doc: MempoolDoc, state: Pick<MempoolState, 'status' | 'reason' | 'replaced_by' | 'receipt_time'>, opts: RenderOpts = {}): string {
  const replaced = state.status === 'dropped' && state.replaced_by ? JSON.stringify(state.replaced_by) : 'null';
  const call = doc.call ? `,"contract_call":${callJson(s.store, doc.call, { withAbi: opts.withAbi !== false, excludeFunctionArgs: !!opts.excludeFunctionArgs })}` : '';
  return `{${doc.body},"tx_status":"${mempoolTxStatus(state)}","replaced_by_tx_id":${replaced},"receipt_time":${state.receipt_time},"receipt_time_iso":"${isoTime(state.receipt_time)}"${call}}`;
}

/** The canonical placement among `pids`, newest first; `streamed`: whether one is an unconfirmed
 *  microblock's. `withCold`: its events and raw bytes too. */
function bestPlacement(s: Serving, pids: readonly number[], withCold = false): { best?: PlacedTxDoc; streamed: boolean } {
  let best: PlacedTxDoc | undefined;
  let streamed = false;
  for (const pid of pids) {
    const p = placedDocOf(s.store, pid, withCold);
    if (!p) continue;
    if (p.doc.flags & TX_FLAGS.UNANCHORED) {
      streamed = true;
      continue;
    }
    const f = s.view.placementFlags(p);
    if (!f.canonical || !f.microblock_canonical) continue;
    if (!best || p.block_height > best.block_height) best = p;
  }
  return { best, streamed };
}

/**
 * The placement the reference serves for a tx: canonical, in a canonical block, newest first.
 * 'unanchored' when the answer may be a streamed microblock placement (asked with unanchored, and
 * no confirmed placement is canonical: a confirmed one wins, as in pickCanonical).
 */
export function canonicalPlacement(s: Serving, txId: string, includeUnanchored = false, withCold = false): PlacedTxDoc | 'unanchored' | undefined {
  const rec = txRecordOf(s.store, txId);
  if (!rec) return undefined;
  const { best, streamed } = bestPlacement(s, rec.pids, withCold);
  if (!best) return streamed && includeUnanchored ? 'unanchored' : undefined;
  return best;
}

/** The tx object the reference's tx lookups give: the canonical mined tx, else its mempool object. */
export function txJson(s: Serving, txId: string, opts: RenderOpts & { includeUnanchored?: boolean }): { text: string; settled: boolean } | null | undefined {
  const rec = txRecordOf(s.store, txId);
  const { best, streamed } = rec ? bestPlacement(s, rec.pids, (opts.events?.limit ?? 0) > 0) : { best: undefined, streamed: false };
  if (best) return { text: minedTxJson(s, best, opts), settled: true };
  if (streamed && opts.includeUnanchored) return undefined;
  // A pending tx's status is its pending entry (tx-index-overlay.ts); a tx that left the mempool has its own.
  const pending = s.view.pending.get(txId);
  const state = rec?.mempool ?? (pending && { status: 'pending' as const, reason: '', replaced_by: '', receipt_time: pending.receipt_time });
  const doc = state && mempoolDocOf(s.store, txId);
  if (!doc || !state) return null;
  return { text: mempoolTxJson(s, doc, state, opts), settled: false };
}
