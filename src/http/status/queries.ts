// Reads behind /extended: the canonical tip, its unconfirmed microblock, the PoX unlock heights.
import type { Store } from '../../storage/client.ts';
import { firstRow } from '../reads/query.ts';

export interface ChainTip {
  block_height: number;
  block_hash: string;
  index_block_hash: string;
  burn_block_height: number;
  microblock_hash?: string;
  microblock_sequence?: number;
  pox_v1_unlock_height: number;
  pox_v2_unlock_height: number;
  pox_v3_unlock_height: number;
}

/**
 * The burn height the reference's chain_tip row holds: set to the tip block's when that block
 * became canonical (the log entry `since`), raised by every burn block delivered after it.
 */
async function burnHeightSince(store: Store, tipBurnHeight: number, since: number): Promise<number> {
  const later = await firstRow<{ h: string }>(
    store,
    `SELECT max(burn_block_height) AS h FROM burn_blocks WHERE burn_block_height > {b:UInt32} AND log_id > {v:UInt64}`,
    { b: tipBurnHeight, v: since },
  );
  return Math.max(tipBurnHeight, Number(later?.h ?? 0));
}

export async function getChainTip(store: Store): Promise<ChainTip | undefined> {
  const tip = await firstRow<Record<string, string>>(
    store,
    `SELECT c.block_height AS block_height, c.index_block_hash AS index_block_hash, c.version AS since, b.block_hash AS block_hash,
            b.burn_block_height AS burn_block_height, b.pox_v1_unlock_height AS pox_v1_unlock_height,
            b.pox_v2_unlock_height AS pox_v2_unlock_height, b.pox_v3_unlock_height AS pox_v3_unlock_height
     FROM (SELECT block_height, index_block_hash, version FROM block_canonical FINAL WHERE canonical = 1 ORDER BY block_height DESC LIMIT 1) AS c
     INNER JOIN blocks AS b ON b.index_block_hash = c.index_block_hash
     LIMIT 1`,
  );
  if (!tip) return undefined;
  const burnHeight = await burnHeightSince(store, Number(tip.burn_block_height), Number(tip.since));
  const mb = await firstRow<{ microblock_hash: string; microblock_sequence: string }>(
    store,
    `SELECT microblock_hash, microblock_sequence FROM microblock_canonical FINAL
     WHERE parent_index_block_hash = {tip:String} AND canonical = 1 AND index_block_hash = ''
     ORDER BY microblock_sequence DESC LIMIT 1`,
    { tip: tip.index_block_hash },
  );
  return {
    block_height: Number(tip.block_height),
    block_hash: tip.block_hash,
    index_block_hash: tip.index_block_hash,
    burn_block_height: burnHeight,
    microblock_hash: mb?.microblock_hash,
    microblock_sequence: mb ? Number(mb.microblock_sequence) : undefined,
    pox_v1_unlock_height: Number(tip.pox_v1_unlock_height),
    pox_v2_unlock_height: Number(tip.pox_v2_unlock_height),
    pox_v3_unlock_height: Number(tip.pox_v3_unlock_height),
  };
}
