// /extended/v3/principals/:principal/transactions and balance changes: the txs a principal took
// part in (newest first, by cursor) with its STX movement in each, and its per-asset changes.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { v3Schema } from './schemas.ts';
import { badRequest } from '../errors.ts';
import { listParam, LIST, TX_ID_PATTERN } from '../tx/params.ts';
import { normalizeTxId } from '../tx/queries.ts';
import { TX_ID_PARAM } from '../params.ts';
import { PRINCIPAL_PARAM } from '../address/params.ts';
import { askTwin } from './twin.ts';
import { encodeTxCursor, newerFirst, pageAt, parseTxCursor, txCursorOffset, type CursorPage } from './cursor.ts';
import { indexHashesOf, principalTxList, V1_TX, type AddressTx } from './queries.ts';
import { txKeyOf, txSummary, type V1Tx } from './tx-shape.ts';
import type { V1Event } from './event-shape.ts';
import { assetCursorOf, atOrAfterAsset, balanceChangesIn, changeJson, type BalanceChange } from './balance-changes.ts';
import { cursorQuery, PAGE, PRINCIPAL_PARAMS, TX_PAGE_QUERY } from './params.ts';

const keyOfEntry = (e: AddressTx) => e.key ?? txKeyOf(e.tx);

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** How the principal took part in the tx, and which of its balances the tx touched. */
function involvementIn(principal: string, e: AddressTx) {
  const { tx } = e;
  const feePayer = tx.sponsored && tx.sponsor_address ? tx.sponsor_address : tx.sender_address;
  const involvement = tx.sender_address === principal ? 'sender' : tx.sponsored && tx.sponsor_address === principal ? 'sponsor' : 'affected';
  const recipient = tx.tx_type === 'token_transfer' && tx.token_transfer?.recipient_address === principal;
  return {
    involvement,
    balance_changes: { stx: { sent: e.stx_sent, received: e.stx_received, net: (BigInt(e.stx_received) - BigInt(e.stx_sent)).toString() } },
    affected_balances: { stx: feePayer === principal || recipient || sum(e.events.stx) > 0, ft: sum(e.events.ft) > 0, nft: sum(e.events.nft) > 0 },
  };
}

/** A canonical mined tx with all its events (streamed microblock txs too), or undefined. */
async function minedTxWithEvents(ctx: ApiContext, txId: string): Promise<(V1Tx & { events: V1Event[] }) | undefined> {
  const events: V1Event[] = [];
  for (;;) {
    const a = await askTwin<V1Tx & { events: V1Event[] }>(V1_TX, ctx, { tx_id: txId }, { unanchored: true, event_offset: events.length, event_limit: 100 });
    const tx = a.status === 200 ? a.body : undefined;
    if (!tx || !('block_height' in tx) || !tx.canonical) return undefined;
    events.push(...tx.events);
    if (tx.events.length === 0 || events.length >= tx.event_count) return { ...tx, events };
  }
}

/** Position and cursor of one change in the multi-tx list (`height:sequence:index:type:id`). */
const changeCursor = (tx: V1Tx, c: BalanceChange) => `${encodeTxCursor(txKeyOf(tx))}:${assetCursorOf(c)}`;

export const v3PrincipalTxRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v3/principals/:principal/transactions',
    responses: { 200: v3Schema('PrincipalTransactionList') },
    summary: 'Get principal transactions',
    description: 'The transactions a principal took part in, newest first, by cursor, with its STX movement in each.',
    operationId: 'get_principal_transactions',
    tags: ['Transactions'],
    params: PRINCIPAL_PARAMS,
    query: TX_PAGE_QUERY,
    handler: async (req, ctx): Promise<CursorPage<unknown>> => {
      const q = queryOf<{ limit: number; cursor?: string }>(req);
      const { limit } = q;
      const principal = req.params.principal;
      const list = principalTxList(ctx, principal);
      const offset = q.cursor ? await txCursorOffset(list, q.cursor, keyOfEntry) : 0;
      const { results, cursor } = await pageAt(list, offset, limit, (e) => encodeTxCursor(keyOfEntry(e)));
      const ids = await indexHashesOf(ctx, results.map((e) => e.tx), false);
      return {
        total: results.length ? await list.total() : 0,
        limit,
        cursor,
        results: results.map((e) => ({ transaction: txSummary(e.tx, ids.get(e.tx.tx_id)!), ...involvementIn(principal, e) })),
      };
    },
  },
  {
    method: 'get',
    path: '/extended/v3/principals/:principal/transactions/:tx_id/balance-changes',
    responses: { 200: v3Schema('PrincipalTransactionBalanceChangeList') },
    summary: 'Get principal transaction balance changes',
    description: "A principal's balance changes in one transaction, by asset.",
    operationId: 'get_principal_transaction_balance_changes',
    tags: ['Transactions'],
    params: { type: 'object', properties: { principal: PRINCIPAL_PARAM, tx_id: TX_ID_PARAM }, required: ['principal', 'tx_id'] },
    query: cursorQuery('^[0-9]+:\\S+$', PAGE.tx),
    handler: async (req, ctx): Promise<CursorPage<unknown>> => {
      const q = queryOf<{ limit: number; cursor?: string }>(req);
      const { limit } = q;
      const tx = await minedTxWithEvents(ctx, normalizeTxId(req.params.tx_id));
      const all = tx ? balanceChangesIn(req.params.principal, tx, tx.events) : [];
      const from = q.cursor ? all.findIndex((c) => atOrAfterAsset(c, q.cursor!)) : 0;
      const start = from < 0 ? all.length : from;
      const page = all.slice(start, start + limit);
      return {
        total: page.length ? all.length : 0,
        limit,
        cursor: {
          next: all[start + limit] ? assetCursorOf(all[start + limit]) : null,
          previous: page.length && start > 0 && start - limit >= 0 ? assetCursorOf(all[start - limit]) : null,
          current: page[0] ? assetCursorOf(page[0]) : null,
        },
        results: page.map(changeJson),
      };
    },
  },
  {
    method: 'get',
    path: '/extended/v3/principals/:principal/balance-changes',
    responses: { 200: v3Schema('PrincipalBalanceChangeList') },
    summary: 'Get principal balance changes',
    description: "A principal's balance changes in the given transactions, newest transaction first, then by asset.",
    operationId: 'get_principal_balance_changes',
    tags: ['Transactions'],
    params: PRINCIPAL_PARAMS,
    query: { ...cursorQuery('^[0-9]+:[0-9]+:[0-9]+:[0-9]+:\\S+$', PAGE.tx, { tx_id: LIST }), required: ['tx_id'] },
    handler: async (req, ctx): Promise<CursorPage<unknown>> => {
      const q = queryOf<{ limit: number; cursor?: string }>(req);
      const { limit } = q;
      const txIds = listParam(req, 'tx_id');
      txIds.forEach((id, i) => {
        if (!new RegExp(TX_ID_PATTERN).test(id)) throw badRequest(`querystring/tx_id/${i} must match pattern "${TX_ID_PATTERN}"`);
      });
      const txs = (await Promise.all([...new Set(txIds.map(normalizeTxId))].map((id) => minedTxWithEvents(ctx, id)))).filter((t) => t !== undefined);
      txs.sort((a, b) => newerFirst(txKeyOf(a), txKeyOf(b)));
      const all = txs.flatMap((tx) => balanceChangesIn(req.params.principal, tx, tx.events).map((c) => ({ tx, c })));
      let start = 0;
      if (q.cursor) {
        const at = parseTxCursor(q.cursor);
        const asset = q.cursor.split(':').slice(3).join(':');
        start = all.findIndex(({ tx, c }) => {
          const order = newerFirst(txKeyOf(tx), at);
          return order > 0 || (order === 0 && atOrAfterAsset(c, asset));
        });
        if (start < 0) start = all.length;
      }
      const page = all.slice(start, start + limit);
      const cursorAt = (i: number) => (all[i] ? changeCursor(all[i].tx, all[i].c) : null);
      return {
        total: page.length ? all.length : 0,
        limit,
        cursor: { next: cursorAt(start + limit), previous: page.length && start > 0 && start - limit >= 0 ? cursorAt(start - limit) : null, current: cursorAt(start) },
        results: page.map(({ tx, c }) => ({ tx_id: tx.tx_id, ...changeJson(c) })),
      };
    },
  },
];
