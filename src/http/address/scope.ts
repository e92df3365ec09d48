// Which rows of a principal-keyed table (principal_txs, principal_events, principal_balance_changes)
// are on the canonical chain, as SQL read by key prefix: the principal's own blocks are checked in
// the block_canonical overlay by its key, never the whole table.
import type { Store } from '../../storage/client.ts';
import type { ApiContext } from '../context.ts';
import { firstRow } from '../reads/query.ts';

/** The canonical tip as address reads need it. */
export interface ChainTip {
  block_height: number;
  burn_block_height: number;
  pox_v1_unlock_height: number;
  pox_v2_unlock_height: number;
  pox_v3_unlock_height: number;
}

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

/**
 * Rows of `table` for {p:String} in the scope: a row of a block counts when the block is canonical
 * and, for a microblock tx, that block accepted the microblock; a row of an unconfirmed microblock
 * (index_block_hash '') while the microblock is canonical and not yet accepted.
 */
export function scopeWhere(table: string, s: Scope): string {
  const height = s.atHeight !== undefined ? `block_height = {atH:UInt32}` : `block_height <= {maxH:UInt32}`;
  const anchored = `index_block_hash != '' AND ${height} AND (block_height, index_block_hash) IN (
      SELECT block_height, index_block_hash FROM block_canonical FINAL
      WHERE canonical = 1 AND (block_height, index_block_hash) IN (SELECT block_height, index_block_hash FROM ${table} WHERE principal = {p:String} AND ${height}))${
    // principal_balance_changes sums whole blocks (their accepted microblock txs included).
    table === 'principal_balance_changes'
      ? ''
      : `
    AND (microblock_hash = '' OR (microblock_hash, index_block_hash) IN (
      SELECT microblock_hash, index_block_hash FROM microblock_canonical FINAL
      WHERE canonical = 1 AND microblock_hash IN (SELECT microblock_hash FROM ${table} WHERE principal = {p:String} AND microblock_hash != '')))`
  }`;
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

/**
 * The tip only moves when the processor stores more log entries: in a process that ingests, it is
 * read once per processed entry id (a read-only process, whose writer is elsewhere, always reads).
 */
const tips = new WeakMap<Store, { processedId: number; tip: Promise<ChainTip> }>();

export function chainTip(ctx: Pick<ApiContext, 'store' | 'ingest'>): Promise<ChainTip> {
  const processedId = ctx.ingest?.processedId();
  if (processedId === undefined) return readChainTip(ctx.store);
  const cached = tips.get(ctx.store);
  if (cached?.processedId === processedId) return cached.tip;
  const tip = readChainTip(ctx.store);
  tips.set(ctx.store, { processedId, tip });
  tip.catch(() => {
    if (tips.get(ctx.store)?.tip === tip) tips.delete(ctx.store);
  });
  return tip;
}

/** Before the first block: height 0, so balances are zero and lists empty. */
const NO_TIP: ChainTip = { block_height: 0, burn_block_height: 0, pox_v1_unlock_height: 0, pox_v2_unlock_height: 0, pox_v3_unlock_height: 0 };

async function readChainTip(store: Store): Promise<ChainTip> {
  const r = await firstRow<Record<string, string>>(
    store,
    `SELECT block_height, burn_block_height, pox_v1_unlock_height, pox_v2_unlock_height, pox_v3_unlock_height FROM blocks
     WHERE index_block_hash = (SELECT argMax(index_block_hash, block_height) FROM block_canonical FINAL WHERE canonical = 1) LIMIT 1`,
  );
  if (!r) return NO_TIP;
  return {
    block_height: Number(r.block_height),
    burn_block_height: Number(r.burn_block_height),
    pox_v1_unlock_height: Number(r.pox_v1_unlock_height),
    pox_v2_unlock_height: Number(r.pox_v2_unlock_height),
    pox_v3_unlock_height: Number(r.pox_v3_unlock_height),
  };
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
