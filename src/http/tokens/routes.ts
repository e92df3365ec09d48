// /extended/v1/tokens: NFT holdings of a principal, one NFT's history, an asset's mints (each with
// its tx_id or, with tx_metadata, the tx), and an FT's (or STX's) holders.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import type { ApiRequest } from '../request.ts';
import { httpError } from '../errors.ts';
import { getMinedTxObjects, type TxKey } from '../tx/tx-object.ts';
import { tipHeight } from '../tx/queries.ts';
import { clarityHexRepr } from '../../stacks/codec/index.ts';
import { isValidPrincipal } from '../../stacks/codec/c32.ts';
import { nftHistory, nftHoldings, nftMintsPage, tokenHolders, type NftEventRow } from './queries.ts';
import { FT_HOLDERS, HISTORY_QUERY, HOLDERS_PARAMS, HOLDERS_QUERY, HOLDINGS_QUERY, MINTS_QUERY, NFT_HISTORY, NFT_HOLDINGS, NFT_MINTS } from './schemas.ts';

type Page = { limit: number; offset: number; tx_metadata: boolean };

const clarity = (hex: string) => {
  try {
    return clarityHexRepr(hex);
  } catch {
    return { hex, repr: '' };
  }
};

/** An asset identifier's contract part must be a contract principal. */
function checkAsset(asset: string, message: string): void {
  if (!isValidPrincipal(asset.split('::')[0])) throw httpError(400, message);
}

/** Each item with its tx_id, or with the tx object (the canonical placement the event is in). */
async function withTxs<T>(ctx: ApiContext, list: NftEventRow[], txMetadata: boolean, item: (r: NftEventRow) => T): Promise<Array<T & ({ tx_id: string } | { tx: unknown })>> {
  if (!txMetadata) return list.map((r) => ({ ...item(r), tx_id: r.tx_id }));
  const keys: TxKey[] = list.map((r) => ({ tx_id: r.tx_id, index_block_hash: r.index_block_hash, microblock_hash: r.microblock_hash }));
  const txs = await getMinedTxObjects(ctx.store, keys);
  const byId = new Map(txs.map((t) => [t.tx_id as string, t]));
  return list.filter((r) => byId.has(r.tx_id)).map((r) => ({ ...item(r), tx: byId.get(r.tx_id) }));
}

/** The height lists are read at: the tip, or the block after it with `unanchored`. */
async function readHeight(req: ApiRequest, ctx: ApiContext): Promise<number> {
  return (await tipHeight(ctx.store)) + (queryOf<{ unanchored?: boolean }>(req).unanchored ? 1 : 0);
}

export const tokenRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v1/tokens/nft/holdings',
    summary: 'Non-Fungible Token holdings',
    tags: ['Non-Fungible Tokens'],
    query: HOLDINGS_QUERY,
    responses: { 200: NFT_HOLDINGS },
    handler: async (req, ctx) => {
      const { principal, limit, offset, tx_metadata } = queryOf<Page & { principal: string }>(req);
      if (!isValidPrincipal(principal)) throw httpError(400, 'Invalid or missing principal');
      const assets = req.query.getAll('asset_identifiers').flatMap((a) => a.split(','));
      for (const a of assets) checkAsset(a, 'Invalid asset identifier');
      const held = await nftHoldings(ctx.store, principal, assets.length ? assets : undefined);
      const page = held.slice(offset, offset + limit);
      const results = await withTxs(ctx, page, tx_metadata, (r) => ({ asset_identifier: r.asset_identifier, value: clarity(r.value), block_height: r.block_height }));
      return { limit, offset, total: page.length === 0 ? 0 : held.length, results };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/tokens/nft/history',
    summary: 'Non-Fungible Token history',
    tags: ['Non-Fungible Tokens'],
    query: HISTORY_QUERY,
    responses: { 200: NFT_HISTORY },
    handler: async (req, ctx) => {
      const { asset_identifier, value, limit, offset, tx_metadata } = queryOf<Page & { asset_identifier: string; value: string }>(req);
      checkAsset(asset_identifier, 'Invalid or missing asset_identifier');
      const all = await nftHistory(ctx.store, asset_identifier, value.startsWith('0x') ? value : `0x${value}`, await readHeight(req, ctx));
      const page = all.slice(offset, offset + limit);
      const results = await withTxs(ctx, page, tx_metadata, (r) => ({ sender: r.sender || null, recipient: r.recipient || null, event_index: r.event_index, asset_event_type: r.asset_event_type }));
      return { limit, offset, total: page.length === 0 ? 0 : all.length, results };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/tokens/nft/mints',
    summary: 'Non-Fungible Token mints',
    tags: ['Non-Fungible Tokens'],
    query: MINTS_QUERY,
    responses: { 200: NFT_MINTS },
    handler: async (req, ctx) => {
      const { asset_identifier, limit, offset, tx_metadata } = queryOf<Page & { asset_identifier: string }>(req);
      checkAsset(asset_identifier, 'Invalid or missing asset_identifier');
      const { total, results: page } = await nftMintsPage(ctx.store, asset_identifier, await readHeight(req, ctx), limit, offset);
      const results = await withTxs(ctx, page, tx_metadata, (r) => ({ recipient: r.recipient, event_index: r.event_index, value: clarity(r.value) }));
      return { limit, offset, total, results };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/tokens/ft/:token/holders',
    summary: 'Fungible token holders',
    tags: ['Fungible Tokens'],
    params: HOLDERS_PARAMS,
    query: HOLDERS_QUERY,
    responses: { 200: FT_HOLDERS },
    handler: async (req, ctx) => {
      const { limit, offset } = queryOf<{ limit: number; offset: number }>(req);
      const { total, totalSupply, results } = await tokenHolders(ctx.store, req.params.token, limit, offset);
      return { limit, offset, total, total_supply: totalSupply, results };
    },
  },
];
