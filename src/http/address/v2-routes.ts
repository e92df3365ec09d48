// /extended/v2/addresses/…: STX and FT balances, a principal's transactions with per-tx
// summaries, and its events in one tx.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { rows, firstRow } from '../reads/query.ts';
import { PRINCIPAL_PARAM, principalParams, Q_V2_EVENTS, Q_V2_FT, Q_V2_STX, Q_V2_TXS, TX_ID_PARAM } from './params.ts';
import { ADDRESS_TRANSACTIONS_V2, ADDRESS_TX_EVENTS, FT_BALANCE_V2, FT_BALANCES_V2, STX_BALANCE_V2 } from './schemas.ts';
import { checkPrincipal, resolveReadHeight } from './resolve.ts';
import { assetTotals, lockStateV2, pendingDelta } from './balance-queries.ts';
import { formatAddressTxEvent, formatStxBalanceV2 } from './format.ts';
import { addressTransactionsV2, principalTxEvents } from './tx-lists.ts';
import { servedAssetTotals, servedFtBalances, servedPrincipalTxEvents, servedStxBalanceV2, servedTransactionsV2 } from './served.ts';
import { JsonText } from '../../server/json-text.ts';
import { servingReady } from '../reads/source.ts';

const ADDRESS_PARAMS = { type: 'object', properties: { address: PRINCIPAL_PARAM }, required: ['address'] };

export const addressV2Routes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v2/addresses/:principal/balances/stx',
    summary: 'Get principal STX balance',
    tags: ['Accounts'],
    params: principalParams(),
    query: Q_V2_STX,
    responses: { 200: STX_BALANCE_V2 },
    handler: async (req, ctx) => {
      const principal = checkPrincipal(req.params.principal);
      const { include_mempool } = queryOf<{ include_mempool: boolean }>(req);
      const served = servingReady(ctx.serving) ? servedStxBalanceV2(ctx.serving, principal, include_mempool) : undefined;
      if (served) return served;
      const at = await resolveReadHeight(ctx, {});
      const [assets, lock, pending] = await Promise.all([
        assetTotals(ctx.store, principal, at, 'stx'),
        lockStateV2(ctx.store, principal, at),
        include_mempool ? pendingDelta(ctx.store, principal) : Promise.resolve(undefined),
      ]);
      const stx = assets.get('stx');
      return formatStxBalanceV2(stx?.balance ?? 0n, stx?.total_miner_rewards ?? 0n, lock, pending);
    },
  },
  {
    method: 'get',
    path: '/extended/v2/addresses/:principal/balances/ft',
    summary: 'Get principal FT balances',
    tags: ['Accounts'],
    params: principalParams(),
    query: Q_V2_FT,
    responses: { 200: FT_BALANCES_V2 },
    handler: async (req, ctx) => {
      const principal = checkPrincipal(req.params.principal);
      const { limit, offset } = queryOf<{ limit: number; offset: number }>(req);
      // Positive balances of the canonical tip, by token name ignoring case.
      const list = servingReady(ctx.serving) ? servedFtBalances(ctx.serving, principal) : await rows<{ token: string; balance: string }>(
        ctx.store,
        `SELECT asset AS token, toString(total) AS balance FROM (
           SELECT asset, sum(balance) AS total FROM balances WHERE principal = {p:String} AND asset != 'stx' GROUP BY asset) WHERE total > 0`,
        { p: principal },
      );
      list.sort((a, b) => (a.token.toLowerCase() < b.token.toLowerCase() ? -1 : a.token.toLowerCase() > b.token.toLowerCase() ? 1 : 0));
      const results = list.slice(offset, offset + limit);
      return { limit, offset, total: results.length ? list.length : 0, results };
    },
  },
  {
    method: 'get',
    path: '/extended/v2/addresses/:principal/balances/ft/:token',
    summary: 'Get principal FT balance',
    tags: ['Accounts'],
    params: principalParams('principal', { token: { type: 'string' } }),
    responses: { 200: FT_BALANCE_V2 },
    handler: async (req, ctx) => {
      const principal = checkPrincipal(req.params.principal);
      if (servingReady(ctx.serving)) return { balance: (servedAssetTotals(ctx.serving, principal, req.params.token).get(req.params.token)?.balance ?? 0n).toString() };
      const r = await firstRow<{ balance: string }>(
        ctx.store,
        `SELECT toString(sum(balance)) AS balance FROM balances WHERE principal = {p:String} AND asset = {t:String}`,
        { p: principal, t: req.params.token },
      );
      return { balance: r?.balance ?? '0' };
    },
  },
  {
    method: 'get',
    path: '/extended/v2/addresses/:address/transactions',
    summary: 'Get address transactions',
    tags: ['Transactions'],
    params: ADDRESS_PARAMS,
    query: Q_V2_TXS,
    responses: { 200: ADDRESS_TRANSACTIONS_V2 },
    handler: async (req, ctx) => {
      const q = queryOf<{ limit: number; offset: number; exclude_function_args: boolean }>(req);
      const served = servingReady(ctx.serving) ? servedTransactionsV2(ctx.serving, req.params.address, q) : undefined;
      if (served) return new JsonText(served);
      return addressTransactionsV2(ctx.store, req.params.address, q);
    },
  },
  {
    method: 'get',
    path: '/extended/v2/addresses/:address/transactions/:tx_id/events',
    summary: 'Get events for an address transaction',
    tags: ['Transactions'],
    params: { type: 'object', properties: { address: PRINCIPAL_PARAM, tx_id: TX_ID_PARAM }, required: ['address', 'tx_id'] },
    query: Q_V2_EVENTS,
    responses: { 200: ADDRESS_TX_EVENTS },
    handler: async (req, ctx) => {
      const { limit, offset } = queryOf<{ limit: number; offset: number }>(req);
      const { address, tx_id } = req.params;
      const served = servingReady(ctx.serving) ? servedPrincipalTxEvents(ctx.serving, address, tx_id) : undefined;
      if (served) {
        const results = served.slice(offset, offset + limit).map(formatAddressTxEvent);
        return { limit, offset, total: results.length ? served.length : 0, results };
      }
      // As the reference: the tx id is matched as given, and must name a stored tx.
      const known = await firstRow(ctx.store, `SELECT 1 FROM txs WHERE tx_id = {t:String} LIMIT 1`, { t: tx_id });
      if (!known) throw notFound('Transaction not found');
      const events = await principalTxEvents(ctx.store, address, tx_id);
      const results = events.slice(offset, offset + limit).map(formatAddressTxEvent);
      return { limit, offset, total: results.length ? events.length : 0, results };
    },
  },
];
