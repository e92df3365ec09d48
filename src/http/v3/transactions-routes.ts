// /extended/v3/transactions: the chain's mined txs by cursor, one tx in full, a tx's events.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { v3Schema } from './schemas.ts';
import { httpError, notFound } from '../errors.ts';
import { checkEnumList, listParam, LIST } from '../tx/params.ts';
import { normalizeTxId } from '../tx/queries.ts';
import { askTwin } from './twin.ts';
import { encodeTxCursor, pageAt, txCursorOffset, type CursorPage } from './cursor.ts';
import { bodyOf, chainTxCount, chainTxList, indexHashesOf, V1_TX } from './queries.ts';
import { fullTx, TX_INCLUDE_FIELDS, txKeyOf, txSummary, type SummaryTx, type TxInclude, type V1Tx } from './tx-shape.ts';
import { mempoolTx, type V1MempoolTx } from './mempool-shape.ts';
import { receiptHeightOf } from './mempool-routes.ts';
import { v3Event, type V1Event } from './event-shape.ts';
import { cursorQuery, PAGE, TX_ID_PARAMS, TX_PAGE_QUERY } from './params.ts';
import type { OffsetList } from './cursor.ts';

/** A page of v1 txs as v3 summaries; `total` as the list reports it. */
export async function txSummaryPage(ctx: ApiContext, list: OffsetList<SummaryTx>, q: { limit: number; cursor?: string }, total: (nonEmpty: boolean) => Promise<number>): Promise<CursorPage<unknown>> {
  const offset = q.cursor ? await txCursorOffset(list, q.cursor, txKeyOf) : 0;
  const { results, cursor } = await pageAt(list, offset, q.limit, (t) => encodeTxCursor(txKeyOf(t)));
  const ids = await indexHashesOf(ctx, results, false);
  return { total: await total(results.length > 0), limit: q.limit, cursor, results: results.map((t) => txSummary(t, ids.get(t.tx_id)!)) };
}

/** What the tx lookups answer for a tx no one has seen. */
const NOT_FOUND = 'Transaction not found';

export const v3TransactionRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v3/transactions',
    responses: { 200: v3Schema('TransactionSummaryList') },
    summary: 'Get transactions',
    description: 'Recently mined transactions, newest first, by cursor.',
    operationId: 'get_transactions',
    tags: ['Transactions'],
    query: TX_PAGE_QUERY,
    handler: async (req, ctx) => {
      const q = queryOf<{ limit: number; cursor?: string }>(req);
      return txSummaryPage(ctx, chainTxList(ctx), q, async (nonEmpty) => (nonEmpty ? chainTxCount(ctx) : 0));
    },
  },
  {
    method: 'get',
    path: '/extended/v3/transactions/:tx_id',
    responses: { 200: v3Schema('TransactionOrMempoolTransaction') },
    summary: 'Get transaction',
    description: 'A mined or mempool transaction; heavy fields on request (`include`).',
    operationId: 'get_transaction',
    tags: ['Transactions'],
    params: TX_ID_PARAMS,
    query: { type: 'object', properties: { include: LIST } },
    handler: async (req, ctx) => {
      const include = listParam(req, 'include');
      checkEnumList('include', include, TX_INCLUDE_FIELDS);
      const txId = normalizeTxId(req.params.tx_id);
      const a = await askTwin<V1Tx & V1MempoolTx>(V1_TX, ctx, { tx_id: txId }, { unanchored: true, exclude_function_args: !include.includes('function_args') });
      if (a.status === 404) throw notFound(NOT_FOUND);
      const tx = bodyOf<V1Tx & V1MempoolTx>(a);
      if (!('block_height' in tx) || tx.tx_status.startsWith('pending') || tx.tx_status.startsWith('dropped')) return mempoolTx(tx, include as TxInclude[], await receiptHeightOf(ctx, txId));
      const ids = await indexHashesOf(ctx, [tx]);
      return fullTx(tx, ids.get(tx.tx_id)!, include as TxInclude[]);
    },
  },
  {
    method: 'get',
    path: '/extended/v3/transactions/:tx_id/events',
    responses: { 200: v3Schema('TransactionEventList') },
    summary: 'Get transaction events',
    description: "A mined transaction's events by event index.",
    operationId: 'get_transaction_events',
    tags: ['Transactions'],
    params: TX_ID_PARAMS,
    query: cursorQuery('^[0-9]+$', PAGE.event),
    handler: async (req, ctx) => {
      const { limit, cursor } = queryOf<{ limit: number; cursor?: string }>(req);
      const from = cursor ? Number(cursor) : 0;
      const a = await askTwin<V1Tx & { events: V1Event[] }>(V1_TX, ctx, { tx_id: normalizeTxId(req.params.tx_id) }, { unanchored: true, event_offset: from, event_limit: limit });
      const tx = a.status === 200 ? a.body : undefined;
      // As the reference: only a canonical mined tx has events to list; anything else is a bad id.
      if (!tx || !('block_height' in tx) || tx.tx_status.startsWith('pending') || tx.tx_status.startsWith('dropped')) throw httpError(400, NOT_FOUND);
      const events = tx.events.slice(0, limit);
      const first = events[0];
      const last = first && first.event_index + limit < tx.event_count ? first.event_index + limit : undefined;
      return {
        total: tx.event_count,
        limit,
        cursor: {
          next: last !== undefined ? String(last) : null,
          previous: first && first.event_index > 0 ? String(Math.max(first.event_index - limit, 0)) : null,
          current: first ? String(first.event_index) : null,
        },
        results: events.map(v3Event),
      };
    },
  },
];
