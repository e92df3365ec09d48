// Which rows of a principal-keyed table (principal_txs, principal_events, principal_balance_changes)
// are on the canonical chain, as SQL read by key prefix: the principal's own blocks are checked in
// the block_canonical overlay by its key, never the whole table.
import type { Store } from '../../storage/client.ts';
import { firstRow } from '../query.ts';
import { getChainTip, type ChainTip } from '../status/queries.ts';

export interface Scope {
  principal: string;
  /** Anchored rows at heights <= maxHeight (default: all). */
  maxHeight?: number;
  /** Only anchored rows at this height. */
  atHeight?: number;
  /** Also rows of unconfirmed microblocks streamed on the canonical tip (the reference's height tip+1). */
  unconfirmed?: boolean;
}

export const SCOPE_PARAMS = (s: Scope) => ({ p: s.principal, maxH: s.maxHeight ?? 4294967295, atH: s.atHeight ?? 0 });

/** Rows of `table` for {p:String} in the scope (with FINAL and a table alias where given). */
export function scopeWhere(table: string, s: Scope): string {
  const height = s.atHeight !== undefined ? `block_height = {atH:UInt32}` : `block_height <= {maxH:UInt32}`;
  const anchored = `index_block_hash != '' AND ${height} AND (block_height, index_block_hash) IN (
      SELECT block_height, index_block_hash FROM block_canonical FINAL
      WHERE canonical = 1 AND (block_height, index_block_hash) IN (SELECT block_height, index_block_hash FROM ${table} WHERE principal = {p:String} AND ${height}))`;
  if (!s.unconfirmed || s.atHeight !== undefined) return `principal = {p:String} AND ${anchored}`;
  const streamed = `index_block_hash = '' AND microblock_hash IN (
      SELECT microblock_hash FROM microblock_canonical FINAL
      WHERE canonical = 1 AND index_block_hash = '' AND microblock_hash IN (SELECT microblock_hash FROM ${table} WHERE principal = {p:String} AND index_block_hash = ''))`;
  return `principal = {p:String} AND ((${anchored}) OR (${streamed}))`;
}

/** Newest first; rows of unconfirmed microblocks (stored at height 0) are the newest. */
export const NEWEST_FIRST = `(index_block_hash = '') DESC, block_height DESC, microblock_sequence DESC, tx_index DESC`;

/** The tip, and the height the reference reads at for `until_block` / `unanchored`. */
export interface ReadHeight {
  tip: ChainTip;
  /** The reference's block height: the tip, tip + 1 with unanchored, or the until_block's. */
  height: number;
  /** Height at which anchored rows count. */
  maxHeight: number;
  /** Whether unconfirmed microblock rows count (height above the tip). */
  unconfirmed: boolean;
}

export async function chainTip(store: Store): Promise<ChainTip | undefined> {
  return getChainTip(store);
}

export function readHeight(tip: ChainTip, height: number): ReadHeight {
  return { tip, height, maxHeight: Math.min(height, tip.block_height), unconfirmed: height > tip.block_height };
}

/** Burn block height of the canonical block at `height` (0 when there is none). */
export async function burnHeightAt(store: Store, height: number): Promise<number> {
  const r = await firstRow<{ h: string }>(
    store,
    `SELECT b.burn_block_height AS h FROM blocks AS b
     WHERE b.index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE block_height = {h:UInt32} AND canonical = 1) LIMIT 1`,
    { h: height },
  );
  return Number(r?.h ?? 0);
}
