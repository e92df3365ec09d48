// /extended/v1/address/:principal/{transactions,:tx_id/with_transfers,transactions_with_transfers,mempool}:
// the principal's transactions as full tx objects.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { httpError, notFound } from '../errors.ts';
import { isValidPrincipal } from '../../stacks/codec/index.ts';
import { PRINCIPAL_PARAM, principalParams, Q_MEMPOOL, Q_TXS, Q_TXS_WITH_TRANSFERS } from './params.ts';
import { MEMPOOL_LIST, TX_WITH_TRANSFERS, TXS_LIST, TXS_WITH_TRANSFERS_LIST } from './schemas.ts';
import { checkPrincipal, resolveListHeight } from './resolve.ts';
import { addressMempool, addressTransactionsV1, listScope, transactionsWithTransfers, txWithTransfers } from './tx-lists.ts';
import { servedAddressMempool, servedTransactionsV1, servedTransactionsWithTransfers, servedWithTransfers } from './served.ts';
import { normalizeTxId } from '../tx/queries.ts';
import { JsonText } from '../../server/json-text.ts';
import { servingReady } from '../reads/source.ts';

/** A list at the tip (no height, block or unanchored): the serving store's dense lists answer it. */
const atTip = (q: ListQuery) => !q.height && q.until_block === undefined && !q.unanchored;

interface ListQuery {
  limit: number;
  offset: number;
  height?: number;
  unanchored?: boolean;
  until_block?: string;
  exclude_function_args?: boolean;
}

export const addressV1TxRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v1/address/:principal/transactions',
    summary: 'Get account transactions',
    tags: ['Accounts'],
    params: principalParams(),
    query: Q_TXS,
    responses: { 200: TXS_LIST },
    handler: async (req, ctx) => {
      const principal = checkPrincipal(req.params.principal);
      const q = queryOf<ListQuery>(req);
      const served = atTip(q) && servingReady(ctx.serving) ? servedTransactionsV1(ctx.serving, principal, q) : undefined;
      if (served) return new JsonText(served);
      const { at, atHeight } = await resolveListHeight(ctx, q);
      return addressTransactionsV1(ctx.store, listScope(principal, at, atHeight), q);
    },
  },
  {
    method: 'get',
    path: '/extended/v1/address/:principal/:tx_id/with_transfers',
    summary: 'Get account transaction information for specific transaction',
    tags: ['Accounts'],
    params: { type: 'object', properties: { principal: PRINCIPAL_PARAM, tx_id: { type: 'string' } }, required: ['principal', 'tx_id'] },
    responses: { 200: TX_WITH_TRANSFERS },
    handler: async (req, ctx) => {
      const principal = checkPrincipal(req.params.principal);
      const txId = req.params.tx_id.startsWith('0x') ? req.params.tx_id : `0x${req.params.tx_id}`;
      if (servingReady(ctx.serving)) {
        const served = servedWithTransfers(ctx.serving, principal, normalizeTxId(txId));
        if (!served) throw notFound('No matching transaction found');
        return new JsonText(served);
      }
      const result = await txWithTransfers(ctx.store, principal, txId);
      if (!result) throw notFound('No matching transaction found');
      return result;
    },
  },
  {
    method: 'get',
    path: '/extended/v1/address/:principal/transactions_with_transfers',
    summary: 'Get account transactions including STX transfers for each transaction.',
    tags: ['Accounts'],
    params: principalParams(),
    query: Q_TXS_WITH_TRANSFERS,
    responses: { 200: TXS_WITH_TRANSFERS_LIST },
    handler: async (req, ctx) => {
      const principal = checkPrincipal(req.params.principal);
      const q = queryOf<ListQuery>(req);
      const served = atTip(q) && servingReady(ctx.serving) ? servedTransactionsWithTransfers(ctx.serving, principal, q) : undefined;
      if (served) return new JsonText(served);
      const { at, atHeight } = await resolveListHeight(ctx, q);
      return transactionsWithTransfers(ctx.store, listScope(principal, at, atHeight), q);
    },
  },
  {
    method: 'get',
    path: '/extended/v1/address/:principal/mempool',
    summary: 'Transactions for address',
    tags: ['Transactions'],
    params: principalParams(),
    query: Q_MEMPOOL,
    responses: { 200: MEMPOOL_LIST },
    handler: async (req, ctx) => {
      if (!isValidPrincipal(req.params.principal)) throw httpError(400, 'Invalid query parameter, not a valid principal');
      const q = queryOf<{ limit: number; offset: number; unanchored: boolean; exclude_function_args: boolean }>(req);
      const served = servingReady(ctx.serving) ? servedAddressMempool(ctx.serving, req.params.principal, q) : undefined;
      if (served) return new JsonText(served);
      return addressMempool(ctx.store, req.params.principal, q);
    },
  },
];
