// Token reads, each by key: a principal's NFT holdings from its own NFT events (principal_events),
// one NFT's history and an asset's mints through the nft_events projections ordered by token and by
// event type (sql/0002), and a token's holders from ft_holders (balances by asset).
import type { Store } from '../../storage/client.ts';
import { rows, firstRow } from '../reads/query.ts';
import { canonicalEventPage, inReferenceOrder } from '../reads/canonical-rows.ts';
import { scopeWhere, SCOPE_PARAMS, NEWEST_FIRST } from '../address/scope.ts';

export interface NftEventRow {
  tx_id: string;
  index_block_hash: string;
  microblock_hash: string;
  block_height: number;
  microblock_sequence: number;
  tx_index: number;
  event_index: number;
  asset_event_type: string;
  asset_identifier: string;
  sender: string;
  recipient: string;
  value: string;
}

const parse = (r: Record<string, unknown>): NftEventRow => ({
  ...(r as unknown as NftEventRow),
  block_height: Number(r.block_height),
  microblock_sequence: Number(r.microblock_sequence ?? 2147483647),
  tx_index: Number(r.tx_index),
  event_index: Number(r.event_index),
});

const DEDUP = 'LIMIT 1 BY tx_id, index_block_hash, microblock_hash, event_index';

/**
 * The NFTs `principal` holds, latest acquisition first: of each token its canonical events name, the
 * latest one; the principal holds it when it is that event's recipient (any later move of the token
 * has the owner as sender).
 */
export async function nftHoldings(store: Store, principal: string, assets: readonly string[] | undefined): Promise<NftEventRow[]> {
  const scope = { principal };
  const list = await rows(
    store,
    `SELECT tx_id, index_block_hash, microblock_hash, block_height, microblock_sequence, tx_index, event_index, toString(asset_event_type) AS asset_event_type,
            asset_identifier, sender, recipient, value
     FROM principal_events WHERE ${scopeWhere('principal_events', scope)} AND kind = 'nft' ${assets?.length ? 'AND asset_identifier IN {assets:Array(String)}' : ''}
     ORDER BY ${NEWEST_FIRST}, event_index DESC ${DEDUP}`,
    { ...SCOPE_PARAMS(scope), assets: assets ?? [] },
  );
  const seen = new Set<string>();
  const held: NftEventRow[] = [];
  for (const r of list.map(parse)) {
    const token = `${r.asset_identifier}\u0000${r.value}`;
    if (seen.has(token)) continue;
    seen.add(token);
    if (r.recipient === principal) held.push(r);
  }
  return held;
}

const NFT_COLUMNS = `tx_id, index_block_hash, microblock_hash, block_height, tx_index, event_index, toString(asset_event_type) AS asset_event_type, asset_identifier, sender, recipient, value`;

async function canonicalNftEvents(store: Store, where: string, params: Record<string, unknown>): Promise<NftEventRow[]> {
  const list = await rows(store, `SELECT ${NFT_COLUMNS} FROM nft_events WHERE ${where} ORDER BY block_height DESC, tx_index DESC, event_index DESC ${DEDUP}`, params);
  return inReferenceOrder(store, list.map(parse));
}

/** One token's canonical events up to `height`, newest first (as the reference, see inReferenceOrder). */
export function nftHistory(store: Store, asset: string, value: string, height: number): Promise<NftEventRow[]> {
  return canonicalNftEvents(store, 'asset_identifier = {a:String} AND value = {v:String} AND block_height <= {h:UInt32}', { a: asset, v: value, h: height });
}

/** A page of an asset's canonical mints up to `height`, newest first (see canonicalEventPage), and
 *  how many there are (the running count, sql/0005: not a count per request). */
export async function nftMintsPage(store: Store, asset: string, height: number, limit: number, offset: number): Promise<{ total: number; results: NftEventRow[] }> {
  const [results, total] = await Promise.all([
    limit === 0
      ? Promise.resolve([])
      : canonicalEventPage(
          store,
          async (l, o) =>
            (
              await rows(
                store,
                `SELECT ${NFT_COLUMNS} FROM nft_events WHERE asset_identifier = {a:String} AND asset_event_type = 'mint' AND block_height <= {h:UInt32}
                 ORDER BY block_height DESC, tx_index DESC, event_index DESC ${DEDUP} LIMIT {l:UInt32} OFFSET {o:UInt32}`,
                { a: asset, h: height, l, o },
              )
            ).map(parse),
          limit,
          offset,
        ),
    firstRow<{ n: string }>(store, `SELECT sum(n) AS n FROM running_counts WHERE name = 'nft_mints' AND key = {a:String}`, { a: asset }),
  ]);
  return { total: results.length === 0 ? 0 : Number(total?.n ?? 0), results };
}

export interface HolderRow {
  address: string;
  balance: string;
}

/** A token's holders, largest balance first (then by address), with their count and balances' sum. */
export async function tokenHolders(store: Store, asset: string, limit: number, offset: number): Promise<{ total: number; totalSupply: string; results: HolderRow[] }> {
  const list = await rows<{ address: string; balance: string; total: string; supply: string }>(
    store,
    `SELECT address, toString(amount) AS balance, toString(count() OVER ()) AS total, toString(sum(amount) OVER ()) AS supply
     FROM (SELECT principal AS address, sum(balance) AS amount FROM ft_holders WHERE asset = {a:String} GROUP BY principal)
     ORDER BY amount DESC, address LIMIT {l:UInt32} OFFSET {o:UInt32}`,
    { a: asset, l: limit, o: offset },
  );
  return {
    total: list.length ? Number(list[0].total) : 0,
    totalSupply: list.length ? list[0].supply : '0',
    results: list.map((r) => ({ address: r.address, balance: r.balance })),
  };
}
