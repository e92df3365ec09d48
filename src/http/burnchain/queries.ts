// Burnchain reward reads. A burn block is canonical when it is the newest delivery at its height
// (burn_blocks: a burnchain fork re-delivers a height with another hash). Rewards and reward slots
// of one recipient are read through the projections ordered by address (sql/0003).
import type { Store } from '../../storage/client.ts';
import { rows, firstRow } from '../reads/query.ts';

/** (height, hash) of the canonical burn block at each height of the `heights` subquery. */
const canonicalAt = (heights: string) =>
  `(SELECT burn_block_height, argMax(burn_block_hash, log_id) FROM burn_blocks WHERE burn_block_height IN (${heights}) GROUP BY burn_block_height)`;

export interface RewardRow {
  burn_block_hash: string;
  burn_block_height: number;
  burn_amount: string;
  reward_recipient: string;
  reward_amount: string;
  reward_index: number;
}

export interface SlotHolderRow {
  burn_block_hash: string;
  burn_block_height: number;
  address: string;
  slot_index: number;
}

const REWARD_COLUMNS = 'burn_block_hash, burn_block_height, toString(burn_amount) AS burn_amount, reward_recipient, toString(reward_amount) AS reward_amount, reward_index';

/** Canonical rewards newest first (by height, then reward index), optionally of one recipient. */
export async function rewardsPage(store: Store, recipient: string | undefined, limit: number, offset: number): Promise<RewardRow[]> {
  const where = recipient === undefined ? '1' : 'reward_recipient = {r:String}';
  const list = await rows<RewardRow>(
    store,
    `SELECT ${REWARD_COLUMNS} FROM burn_rewards
     WHERE ${where} AND (burn_block_height, burn_block_hash) IN ${canonicalAt(`SELECT burn_block_height FROM burn_rewards WHERE ${where}`)}
     ORDER BY burn_block_height DESC, reward_index DESC
     LIMIT 1 BY burn_block_height, burn_block_hash, reward_index
     LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { r: recipient ?? '', limit, offset },
  );
  return list.map((r) => ({ ...r, burn_block_height: Number(r.burn_block_height), reward_index: Number(r.reward_index) }));
}

/** Sum of one recipient's canonical rewards (satoshis). */
export async function rewardsTotal(store: Store, recipient: string): Promise<string> {
  const r = await firstRow<{ amount: string }>(
    store,
    `SELECT toString(sum(reward_amount)) AS amount FROM (
       SELECT reward_amount FROM burn_rewards
       WHERE reward_recipient = {r:String} AND (burn_block_height, burn_block_hash) IN ${canonicalAt('SELECT burn_block_height FROM burn_rewards WHERE reward_recipient = {r:String}')}
       LIMIT 1 BY burn_block_height, burn_block_hash, reward_index)`,
    { r: recipient },
  );
  return r?.amount ?? '0';
}

/** Canonical reward slot holders newest first (by height, then slot index), optionally of one address, with their count. */
export async function slotHoldersPage(store: Store, address: string | undefined, limit: number, offset: number): Promise<{ total: number; results: SlotHolderRow[] }> {
  const where = address === undefined ? '1' : 'address = {a:String}';
  const canonical = `SELECT burn_block_hash, burn_block_height, address, slot_index FROM reward_slot_holders
     WHERE ${where} AND (burn_block_height, burn_block_hash) IN ${canonicalAt(`SELECT burn_block_height FROM reward_slot_holders WHERE ${where}`)}
     LIMIT 1 BY burn_block_height, burn_block_hash, slot_index`;
  const params = { a: address ?? '', limit, offset };
  const [count, list] = await Promise.all([
    firstRow<{ n: string }>(store, `SELECT count() AS n FROM (${canonical})`, params),
    rows<SlotHolderRow>(store, `SELECT * FROM (${canonical}) ORDER BY burn_block_height DESC, slot_index DESC LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, params),
  ]);
  return { total: Number(count?.n ?? 0), results: list.map((r) => ({ ...r, burn_block_height: Number(r.burn_block_height), slot_index: Number(r.slot_index) })) };
}
