// Transaction answers from the serving store: stored documents with the canonical flags of the
// committed view, the called contract's ABI and the asked events page added. `undefined` means
// "not answerable from the store" (the caller asks ClickHouse): unconfirmed microblock placements,
// a store still catching up.
import { mempoolDocOf, txDocOf, type ServingStore } from '../../serving/store.ts';
import type { ServingView } from '../../serving/view.ts';
import { INLINE_EVENTS, type MempoolDoc, type MempoolState, type TxDoc } from '../../serving/docs.ts';
import { mempoolTxStatus } from '../../render/tx.ts';
import { isoTime } from '../../render/values.ts';
import { callJson } from './served-call.ts';

export interface Serving {
  store: ServingStore;
  view: ServingView;
}

export interface RenderOpts {
  /** Render contract calls with the called contract's ABI (the reference's v2 lists do not). */
  withAbi?: boolean;
  excludeFunctionArgs?: boolean;
  /** The events page; none: `events: []`. */
  events?: { offset: number; limit: number };
}

/** The events page of a placement as JSON array members. */
function eventsJson(s: Serving, pid: number, doc: TxDoc, page: { offset: number; limit: number } | undefined): string {
  if (!page || page.limit <= 0 || doc.event_count <= page.offset) return '';
  const hi = page.offset + page.limit;
  if (hi <= INLINE_EVENTS || doc.event_count <= INLINE_EVENTS) {
    const out: string[] = [];
    for (const [i, json] of doc.events) if (i >= page.offset && i < hi) out.push(json);
    return out.join(',');
  }
  const out: string[] = [];
  for (const { value } of s.store.txEvents.getRange({ start: [pid, page.offset], end: [pid, hi] })) out.push(value);
  return out.join(',');
}

/** A mined placement's tx object as JSON text. */
export function minedTxJson(s: Serving, pid: number, doc: TxDoc, opts: RenderOpts = {}): string {
  const flags = s.view.placementFlags(doc);
  const call = doc.call ? `,"contract_call":${callJson(s.store, doc.call, { withAbi: opts.withAbi !== false, excludeFunctionArgs: !!opts.excludeFunctionArgs })}` : '';
  return `{"canonical":${flags.canonical},"microblock_canonical":${flags.microblock_canonical},${doc.body}${call},"events":[${eventsJson(s, pid, doc, opts.events)}]}`;
}

/** A mempool tx's object as JSON text, with its status as given. */
export function mempoolTxJson(s: Serving, doc: MempoolDoc, state: Pick<MempoolState, 'status' | 'reason' | 'replaced_by' | 'receipt_time'>, opts: RenderOpts = {}): string {
  const replaced = state.status === 'dropped' && state.replaced_by ? JSON.stringify(state.replaced_by) : 'null';
  const call = doc.call ? `,"contract_call":${callJson(s.store, doc.call, { withAbi: opts.withAbi !== false, excludeFunctionArgs: !!opts.excludeFunctionArgs })}` : '';
  return `{${doc.body},"tx_status":"${mempoolTxStatus(state)}","replaced_by_tx_id":${replaced},"receipt_time":${state.receipt_time},"receipt_time_iso":"${isoTime(state.receipt_time)}"${call}}`;
}

/**
 * The placement the reference serves for a tx: canonical, in a canonical block, newest first.
 * 'unanchored' when the answer may be a streamed microblock placement (asked with unanchored, and
 * no confirmed placement is canonical: a confirmed one wins, as in pickCanonical).
 */
export function canonicalPlacement(s: Serving, txId: string, includeUnanchored = false): { pid: number; doc: TxDoc } | 'unanchored' | undefined {
  let best: { pid: number; height: number } | undefined;
  let streamed = false;
  for (const { key, value } of s.store.txPlacements.getRange({ start: [txId], end: [txId, Number.MAX_SAFE_INTEGER] })) {
    const pid = (key as [string, number])[1];
    if (value.index_block_hash === '') {
      streamed = true;
      continue;
    }
    const f = s.view.placementFlags(value);
    if (!f.canonical || !f.microblock_canonical) continue;
    if (!best || value.block_height > best.height) best = { pid, height: value.block_height };
  }
  if (!best) return streamed && includeUnanchored ? 'unanchored' : undefined;
  const doc = txDocOf(s.store, best.pid);
  return doc ? { pid: best.pid, doc } : undefined;
}

/** The tx object the reference's tx lookups give: the canonical mined tx, else its mempool object. */
export function txJson(s: Serving, txId: string, opts: RenderOpts & { includeUnanchored?: boolean }): { text: string; settled: boolean } | null | undefined {
  const mined = canonicalPlacement(s, txId, opts.includeUnanchored);
  if (mined === 'unanchored') return undefined;
  if (mined) return { text: minedTxJson(s, mined.pid, mined.doc, opts), settled: true };
  const doc = mempoolDocOf(s.store, txId);
  const state = doc && s.store.mempoolStates.get(txId);
  if (!doc || !state) return null;
  return { text: mempoolTxJson(s, doc, state, opts), settled: false };
}

/** Whether answers may come from the store now. */
export function servingReady(s: Serving | undefined): s is Serving {
  return !!s && s.view.ready;
}
