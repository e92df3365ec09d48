// Chain-wide lists from the serving store: the newest canonical txs (the global dense list) and the
// pending mempool (the committed view keeps it in memory).
import { JsonText } from '../../server/json-text.ts';
import { mempoolDocOf, placedDocOf } from '../../serving/reads.ts';
import { storedTxListLength, txListFrom } from '../../serving/list-overlay.ts';
import type { PendingEntry } from '../../serving/docs.ts';
import { minedTxJson, mempoolTxJson } from './served.ts';
import type { Serving } from '../reads/source.ts';

/** Placement ids of the global list, newest first, from `offset`. */
function newestTxs(s: Serving, length: number, offset: number, limit: number): number[] {
  const top = length - 1 - offset;
  return top < 0 || limit <= 0 ? [] : txListFrom(s.store, top, limit);
}

/** Mined tx objects of placement ids, without events (as the lists show them). */
export function minedTxsJson(s: Serving, pids: readonly number[], opts: { withAbi?: boolean; excludeFunctionArgs?: boolean } = {}): string[] | undefined {
  const out: string[] = [];
  for (const pid of pids) {
    const p = placedDocOf(s.store, pid);
    if (!p) return undefined;
    out.push(minedTxJson(s, p, opts));
  }
  return out;
}

/** GET /extended/v1/tx with no filter, newest first. */
export function servedTxList(s: Serving, q: { limit: number; offset: number; unanchored: boolean; exclude_function_args: boolean }): JsonText | undefined {
  if (q.unanchored && s.view.hasLiveMicroblocks) return undefined;
  const results = minedTxsJson(s, newestTxs(s, storedTxListLength(s.store), q.offset, q.limit), { excludeFunctionArgs: q.exclude_function_args });
  if (!results) return undefined;
  // As the reference's counter: relabelled boot receipts are listed but not counted.
  const total = s.view.meta.canonicalTxs - s.view.meta.bootTxs;
  return new JsonText(`{"limit":${q.limit},"offset":${q.offset},"total":${total},"results":[${results.join(',')}]}`);
}

/** Pending txs' objects, in the order given. */
export function pendingTxsJson(s: Serving, entries: readonly PendingEntry[], opts: { excludeFunctionArgs?: boolean } = {}): string[] | undefined {
  const out: string[] = [];
  for (const e of entries) {
    const doc = mempoolDocOf(s.store, e.tx_id);
    if (!doc) return undefined;
    out.push(mempoolTxJson(s, doc, { status: 'pending', reason: '', replaced_by: '', receipt_time: e.receipt_time }, opts));
  }
  return out;
}
