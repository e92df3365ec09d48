// /extended/v3/mempool/transactions and a principal's pending txs: newest receipt first (ties by
// tx id, descending), by `receipt_time:tx_id` cursors.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { v3Schema } from './schemas.ts';
import { pendingEntries, receiptHeights, type MempoolEntry } from '../tx/mempool.ts';
import { askTwin } from './twin.ts';
import { bodyOf, V1_TX } from './queries.ts';
import { mempoolSummary, type V1MempoolTx } from './mempool-shape.ts';
import { cursorQuery, MEMPOOL_CURSOR_PATTERN, PAGE, PRINCIPAL_PARAMS } from './params.ts';
import type { CursorPage } from './cursor.ts';

/** The chain height when a pending tx arrived (0 for a tx no longer pending). */
export async function receiptHeightOf(ctx: ApiContext, txId: string): Promise<number> {
  const { entries } = await pendingEntries(ctx.store, true);
  const entry = entries.filter((e) => e.tx_id === txId);
  return (await receiptHeights(ctx.store, entry)).get(txId) ?? 0;
}

const cursorOf = (e: MempoolEntry) => `${e.receipt_time}:${e.tx_id}`;
const newestFirst = (a: MempoolEntry, b: MempoolEntry) => b.receipt_time - a.receipt_time || (a.tx_id < b.tx_id ? 1 : a.tx_id > b.tx_id ? -1 : 0);

/** A page of the pending txs (of a principal), at or below the cursor. */
export async function mempoolPage(ctx: ApiContext, q: { limit: number; cursor?: string }, principal?: string): Promise<CursorPage<unknown>> {
  const { entries } = await pendingEntries(ctx.store, true, principal);
  const list = [...entries].sort(newestFirst);
  let from = 0;
  if (q.cursor) {
    const [time, id] = q.cursor.split(':');
    const at = { receipt_time: Number(time), tx_id: id.startsWith('0x') ? id.toLowerCase() : `0x${id.toLowerCase()}` } as MempoolEntry;
    from = list.findIndex((e) => newestFirst(e, at) >= 0);
    if (from < 0) from = list.length;
  }
  const page = list.slice(from, from + q.limit);
  const heights = await receiptHeights(ctx.store, page);
  const txs = await Promise.all(page.map(async (e) => bodyOf<V1MempoolTx>(await askTwin(V1_TX, ctx, { tx_id: e.tx_id }, { exclude_function_args: true }))));
  return {
    total: page.length ? list.length : 0,
    limit: q.limit,
    cursor: {
      next: list[from + q.limit] ? cursorOf(list[from + q.limit]) : null,
      previous: page.length && from > 0 ? cursorOf(list[Math.max(0, from - q.limit)]) : null,
      current: page[0] ? cursorOf(page[0]) : null,
    },
    results: txs.map((t, i) => mempoolSummary({ ...t, receipt_time: page[i].receipt_time, tx_status: 'pending' }, heights.get(page[i].tx_id) ?? 0)),
  };
}

export const v3MempoolRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v3/mempool/transactions',
    responses: { 200: v3Schema('MempoolTransactionSummaryList') },
    summary: 'Get mempool transactions',
    description: 'Pending transactions, newest receipt first, by cursor.',
    operationId: 'get_mempool_transactions',
    tags: ['Mempool'],
    query: cursorQuery(MEMPOOL_CURSOR_PATTERN, PAGE.tx),
    handler: async (req, ctx) => mempoolPage(ctx, queryOf(req)),
  },
  {
    method: 'get',
    path: '/extended/v3/principals/:principal/mempool/transactions',
    responses: { 200: v3Schema('MempoolTransactionSummaryList') },
    summary: 'Get principal mempool transactions',
    description: 'Pending transactions a principal sends, receives (token transfer) or whose contract it is.',
    operationId: 'get_principal_mempool_transactions',
    tags: ['Mempool'],
    params: PRINCIPAL_PARAMS,
    query: cursorQuery(MEMPOOL_CURSOR_PATTERN, PAGE.tx),
    handler: async (req, ctx) => {
      const q = queryOf<{ limit: number; cursor?: string }>(req);
      return mempoolPage(ctx, q, req.params.principal);
    },
  },
];
