// /extended/v1/search/:id: a 32-byte hash (a tx id, mined or in the mempool, or a block hash), or a
// principal (a standard address that took part in a tx, or a contract by its deploy), with
// `include_metadata` the full object. As the reference: an index block hash or a microblock hash is
// not searched, and a miss answers 404 {found: false, result: {entity_type}, error}.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { getMinedTxObjects, getTxObject, renderMempoolTxs } from '../tx/tx-object.ts';
import type { PlacedTx } from '../tx/queries.ts';
import { withMicroblocks } from '../blocks/v1-routes.ts';
import { parsePrincipal } from '../../stacks/codec/c32.ts';
import { resolveReadHeight } from '../address/resolve.ts';
import { assetTotals, lockStateV1 } from '../address/balance-queries.ts';
import { formatStxBalance } from '../address/format.ts';
import { addressSeen, anyMempoolTx, blockWithHash, deployPlacements, pendingDeploy, pendingMempoolTx, txPlacements } from './queries.ts';
import { SEARCH_FOUND, SEARCH_NOT_FOUND, SEARCH_PARAMS, SEARCH_QUERY } from './schemas.ts';

type Result = Record<string, unknown>;

const found = (result: Result) => ({ found: true, result });
const notFound = (entity_type: string, error: string) => ({ status: 404, body: { found: false, result: { entity_type }, error } });

/** "0x…" lowercase for a 32-byte hex term (with or without 0x), else undefined. */
function hashOf(term: string): string | undefined {
  const hex = term.length === 66 && term.startsWith('0x') ? term.slice(2) : term.length === 64 ? term : undefined;
  if (hex === undefined || !/^[0-9a-fA-F]{64}$/.test(hex)) return undefined;
  return `0x${hex.toLowerCase()}`;
}

/** The tx's stored fields; a tx of an unconfirmed microblock has no block yet ('0x', time -1, as the reference stores it). */
const txData = (p: PlacedTx) => ({
  canonical: p.canonical,
  block_hash: p.unanchored ? '0x' : p.block_hash,
  burn_block_time: p.unanchored ? -1 : p.burn_block_time,
  block_height: p.block_height,
  tx_type: p.type_id,
});

/** The canonical placement the reference's search shows with metadata: the newest. */
const preferred = (list: PlacedTx[]) => [...list].sort((a, b) => b.block_height - a.block_height)[0];

/**
 * The placement the reference's search answers without metadata, orphaned or not: the first row of
 * `txs WHERE tx_id = … LIMIT 1`, read through its unique index (tx_id, index_block_hash,
 * microblock_hash), so the lowest index block hash, then microblock hash. Two of our placements are
 * rows the reference rewrote: a streamed tx's (index hash ''), which an anchor block's acceptance
 * moves into that block (ours counts only while no block included its microblock), and a boot
 * receipt's in block 0, which block 1 relabels as its own.
 */
function firstIndexed(list: PlacedTx[]): PlacedTx | undefined {
  const included = new Set(list.filter((p) => !p.unanchored).map((p) => p.microblock_hash));
  const relabelled = list.some((p) => p.block_height === 1 && !p.unanchored);
  const rows = list.filter((p) => !(p.unanchored && included.has(p.microblock_hash)) && !(relabelled && p.block_height === 0));
  const key = (p: PlacedTx) => (p.unanchored ? '' : p.index_block_hash);
  return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.microblock_hash < b.microblock_hash ? -1 : a.microblock_hash > b.microblock_hash ? 1 : 0))[0];
}

async function searchHash(ctx: ApiContext, hash: string, withMetadata: boolean) {
  const { store } = ctx;
  if (withMetadata) {
    const placed = (await txPlacements(store, hash)).filter((p) => p.canonical && p.microblock_canonical);
    if (placed.length) {
      const tx = preferred(placed);
      const metadata = await getTxObject(store, hash, { includeUnanchored: true, mempool: false });
      return found({ entity_id: hash, entity_type: 'tx_id', tx_data: txData(tx), metadata });
    }
    const m = await anyMempoolTx(store, hash);
    if (m) return found({ entity_id: hash, entity_type: 'mempool_tx_id', tx_data: { tx_type: m.type_id }, metadata: (await renderMempoolTxs(store, [m]))[0] });
  } else {
    const first = firstIndexed(await txPlacements(store, hash));
    if (first) return found({ entity_id: hash, entity_type: 'tx_id', tx_data: txData(first) });
    const m = await pendingMempoolTx(store, hash);
    if (m) return found({ entity_id: hash, entity_type: 'mempool_tx_id', tx_data: { tx_type: m.type_id } });
  }
  const block = await blockWithHash(store, hash);
  if (block) {
    const block_data = { canonical: block.canonical, hash: block.block_hash, parent_block_hash: block.parent_block_hash, burn_block_time: block.burn_block_time, height: block.block_height };
    return found({ entity_id: block.block_hash, entity_type: 'block_hash', block_data, ...(withMetadata ? { metadata: await withMicroblocks(store, block) } : {}) });
  }
  return notFound('unknown_hash', `No block or transaction found with hash "${hash}"`);
}

async function searchContract(ctx: ApiContext, contractId: string, withMetadata: boolean) {
  const { store } = ctx;
  const pending = await pendingDeploy(store, contractId);
  if (pending) {
    const metadata = withMetadata ? { metadata: (await renderMempoolTxs(store, [pending]))[0] } : {};
    return found({ entity_id: contractId, entity_type: 'contract_address', tx_data: { tx_type: pending.type_id, tx_id: pending.tx_id }, ...metadata });
  }
  const placed = (await deployPlacements(store, contractId)).sort(
    (a, b) => Number(b.canonical) - Number(a.canonical) || Number(b.microblock_canonical) - Number(a.microblock_canonical) || b.block_height - a.block_height,
  )[0];
  if (!placed) return notFound('contract_address', `No principal found with address "${contractId}"`);
  const metadata = withMetadata ? { metadata: (await getMinedTxObjects(store, [placed]))[0] } : {};
  return found({ entity_id: contractId, entity_type: 'contract_address', tx_data: { ...txData(placed), tx_id: placed.tx_id }, ...metadata });
}

async function searchAddress(ctx: ApiContext, address: string, withMetadata: boolean) {
  if (!(await addressSeen(ctx.store, address))) return notFound('standard_address', `No principal found with address "${address}"`);
  if (!withMetadata) return found({ entity_id: address, entity_type: 'standard_address' });
  // The balance as of the block after the tip, as the reference reads it.
  const at = await resolveReadHeight(ctx, { unanchored: true });
  const [assets, lock] = await Promise.all([assetTotals(ctx.store, address, at, 'stx'), lockStateV1(ctx.store, address, at)]);
  const totals = assets.get('stx') ?? { balance: 0n, total_sent: 0n, total_received: 0n, total_fees_sent: 0n, total_miner_rewards: 0n };
  return found({ entity_id: address, entity_type: 'standard_address', metadata: formatStxBalance(totals, lock) });
}

function principalKind(term: string): 'standard' | 'contract' | undefined {
  try {
    return parsePrincipal(term).contractName === undefined ? 'standard' : 'contract';
  } catch {
    return undefined;
  }
}

export const searchRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v1/search/:id',
    summary: 'Search blocks, transactions, contracts or accounts by hash or id',
    tags: ['Search'],
    params: SEARCH_PARAMS,
    query: SEARCH_QUERY,
    responses: { 200: SEARCH_FOUND, 404: SEARCH_NOT_FOUND },
    handler: async (req, ctx) => {
      const term = req.params.id.trim();
      const withMetadata = queryOf<{ include_metadata: boolean }>(req).include_metadata;
      const hash = hashOf(term);
      if (hash) return searchHash(ctx, hash, withMetadata);
      const kind = principalKind(term);
      if (kind === 'contract') return searchContract(ctx, term, withMetadata);
      if (kind === 'standard') return searchAddress(ctx, term, withMetadata);
      return notFound('invalid_term', `The term "${term}" is not a valid block hash, transaction ID, contract principal, or account address principal`);
    },
  },
];
