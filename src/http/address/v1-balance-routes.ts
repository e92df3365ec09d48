// /extended/v1/address/:principal/{stx,balances,nonces,assets,stx_inbound}: balances, nonces and
// asset events of one principal, as the reference API answers them.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { httpError, notFound } from '../errors.ts';
import { blockByHash, blockByHeight } from '../blocks/queries.ts';
import type { Store } from '../../storage/client.ts';
import { principalParams, Q_ASSETS, Q_BALANCE, Q_INBOUND, Q_NONCES } from './params.ts';
import { ADDRESS_BALANCE, ADDRESS_NONCES, ASSETS_LIST, INBOUND_LIST, STX_BALANCE } from './schemas.ts';
import { checkPrincipal, resolveListHeight, resolveReadHeight } from './resolve.ts';
import { assetTotals, lockStateV1, nftCounts, pendingDelta } from './balance-queries.ts';
import { addressNonces, nonceAtHeight } from './nonce-queries.ts';
import { principalEventPage } from './queries.ts';
import { byAssetName, formatAssetEvent, formatStxBalance } from './format.ts';
import type { ReadHeight } from './scope.ts';
import { servedAssetTotals, servedLockStateV1, servedNftCounts, servedNonces, servedPendingDelta } from './served.ts';
import { servingReady, type Serving } from '../reads/source.ts';

/** Balances at the tip (no until_block, not unanchored) from the serving store, when it can answer. */
function servedStxBalance(s: Serving, principal: string, withTokens: boolean) {
  const lock = servedLockStateV1(s, principal);
  if (!lock) return undefined;
  const assets = servedAssetTotals(s, principal, withTokens ? undefined : 'stx');
  return { stx: formatStxBalance(assets.get('stx') ?? ZERO, lock, servedPendingDelta(s, principal)), assets };
}

interface BalanceQuery {
  unanchored?: boolean;
  until_block?: string;
}

const ZERO = { balance: 0n, total_sent: 0n, total_received: 0n, total_fees_sent: 0n, total_miner_rewards: 0n };

/** The STX balance object and the FT totals behind it. */
async function stxBalance(store: Store, principal: string, at: ReadHeight, q: BalanceQuery, withTokens: boolean) {
  const [assets, lock, pending] = await Promise.all([
    assetTotals(store, principal, at, withTokens ? undefined : 'stx'),
    lockStateV1(store, principal, at),
    // The mempool fields only when no until_block was given (as the reference).
    q.until_block === undefined ? pendingDelta(store, principal) : Promise.resolve(undefined),
  ]);
  return { stx: formatStxBalance(assets.get('stx') ?? ZERO, lock, pending), assets };
}

export const addressV1BalanceRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v1/address/:principal/stx',
    summary: 'Get account STX balance',
    tags: ['Accounts'],
    params: principalParams(),
    query: Q_BALANCE,
    responses: { 200: STX_BALANCE },
    handler: async (req, ctx) => {
      const principal = checkPrincipal(req.params.principal);
      const q = queryOf<BalanceQuery>(req);
      const served = q.until_block === undefined && !q.unanchored && servingReady(ctx.serving) ? servedStxBalance(ctx.serving, principal, false) : undefined;
      if (served) return served.stx;
      const at = await resolveReadHeight(ctx, q);
      return (await stxBalance(ctx.store, principal, at, q, false)).stx;
    },
  },
  {
    method: 'get',
    path: '/extended/v1/address/:principal/balances',
    summary: 'Get account balances',
    tags: ['Accounts'],
    params: principalParams(),
    query: Q_BALANCE,
    responses: { 200: ADDRESS_BALANCE },
    handler: async (req, ctx) => {
      const principal = checkPrincipal(req.params.principal);
      const q = queryOf<BalanceQuery>(req);
      const fromStore = q.until_block === undefined && !q.unanchored && servingReady(ctx.serving) ? ctx.serving : undefined;
      const served = fromStore && servedStxBalance(fromStore, principal, true);
      const [{ stx, assets }, nfts] =
        fromStore && served
          ? [served, servedNftCounts(fromStore, principal)]
          : await (async () => {
              const at = await resolveReadHeight(ctx, q);
              return Promise.all([stxBalance(ctx.store, principal, at, q, true), nftCounts(ctx.store, principal, at)]);
            })();
      const fts = [...assets.entries()].filter(([asset]) => asset !== 'stx').map(([asset, t]) => ({ asset, t })).sort(byAssetName);
      return {
        stx,
        fungible_tokens: Object.fromEntries(fts.map(({ asset, t }) => [asset, { balance: t.balance.toString(), total_sent: t.total_sent.toString(), total_received: t.total_received.toString() }])),
        non_fungible_tokens: Object.fromEntries(
          nfts.sort(byAssetName).map((n) => [n.asset, { count: n.count.toString(), total_sent: n.sent.toString(), total_received: n.received.toString() }]),
        ),
      };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/address/:principal/nonces',
    summary: 'Get the latest nonce used by an account',
    tags: ['Accounts'],
    params: principalParams(),
    query: Q_NONCES,
    responses: { 200: ADDRESS_NONCES },
    handler: async (req, ctx) => {
      const principal = checkPrincipal(req.params.principal);
      const { block_height, block_hash } = queryOf<{ block_height?: number; block_hash?: string }>(req);
      if (block_height && block_hash) throw httpError(400, 'Multiple block query parameters specified');
      let ident: { height: number } | { hash: string } | undefined;
      if (block_height) ident = { height: block_height };
      else if (block_hash) {
        if (!block_hash.startsWith('0x')) throw httpError(400, `Query parameter 'block_hash' is not a valid block hash hex string`);
        ident = { hash: block_hash };
      }
      if (!ident) return (servingReady(ctx.serving) && servedNonces(ctx.serving, principal)) || addressNonces(ctx.store, principal);
      const block = 'height' in ident ? await blockByHeight(ctx.store, ident.height) : await blockByHash(ctx.store, 'block_hash', ident.hash.toLowerCase());
      if (!block) throw notFound(`No block found for ${JSON.stringify(ident)}`);
      const n = await nonceAtHeight(ctx.store, principal, block.block_height);
      return { ...n, last_mempool_tx_nonce: null, detected_missing_nonces: [], detected_mempool_nonces: [] };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/address/:principal/assets',
    summary: 'Get account assets',
    tags: ['Accounts'],
    params: principalParams(),
    query: Q_ASSETS,
    responses: { 200: ASSETS_LIST },
    handler: async (req, ctx) => {
      const principal = checkPrincipal(req.params.principal);
      const q = queryOf<BalanceQuery & { limit: number; offset: number }>(req);
      const at = await resolveReadHeight(ctx, q);
      const { total, results } = await principalEventPage(ctx.store, { principal, maxHeight: at.maxHeight, unconfirmed: at.unconfirmed }, ['stx_lock', 'stx', 'ft', 'nft'], q);
      return { limit: q.limit, offset: q.offset, total, results: results.map(formatAssetEvent) };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/address/:principal/stx_inbound',
    summary: 'Get inbound STX transfers',
    tags: ['Accounts'],
    params: principalParams(),
    query: Q_INBOUND,
    responses: { 200: INBOUND_LIST },
    handler: async (req, ctx) => {
      const principal = checkPrincipal(req.params.principal);
      const q = queryOf<BalanceQuery & { limit: number; offset: number; height?: number }>(req);
      const { at, atHeight } = await resolveListHeight(ctx, q);
      const scope = { principal, maxHeight: at.maxHeight, atHeight, unconfirmed: at.unconfirmed };
      // Within a tx, the reference's union order: bulk sends, transfer events with a memo, the tx.
      const withinTx = `multiIf(asset_event_type = 'bulk-send', 0, asset_event_type = 'stx-transfer-memo', 1, 2), event_index`;
      const { total, results } = await principalEventPage(ctx.store, scope, ['inbound'], q, withinTx);
      return {
        results: results.map((r) => ({
          sender: r.sender,
          amount: r.amount,
          memo: r.memo,
          block_height: r.index_block_hash === '' ? at.tip.block_height + 1 : r.block_height,
          tx_id: r.tx_id,
          transfer_type: r.asset_event_type,
          tx_index: r.tx_index,
        })),
        total,
        limit: q.limit,
        offset: q.offset,
      };
    },
  },
];
