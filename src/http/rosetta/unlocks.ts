// PoX locks that end with a block, as the reference lists them (stx_unlock operations on the
// block's coinbase): for each PoX version still in force at the block's burn height, each stacker
// whose newest lock operation ending in (the previous block's burn height, this block's] ends there,
// or whose newest handle-unlock is in [previous, this); and, at the burn height that forces
// PoX-1/2/3 to end, every lock still held in it. Candidates are read by unlock height (the
// projections of sql/0002), never by scanning the stacking history. As the reference, a lock a
// later operation superseded is listed too (a stack-extend keeps its STX locked; after a
// handle-unlock they came back already): such an unlock is flagged `superseded`, and the block's
// correcting transaction takes it back (see corrections.ts).
import type { Store } from '../../storage/client.ts';
import { rows } from '../reads/query.ts';
import { CANONICAL_BLOCKS } from '../reads/canonical.ts';
import type { ChainTip } from '../address/scope.ts';

/** PoX-2/3/4 operations that set a lock's unlock height (a handle-unlock ends one). */
const LOCKING_OPS = ['stack-stx', 'stack-increase', 'stack-extend', 'delegate-stack-stx', 'delegate-stack-increase', 'delegate-stack-extend'];

interface LockRow {
  stacker: string;
  op: string;
  amount: string;
  block_height: number;
  index_block_hash: string;
  microblock_hash: string;
  tx_index: number;
  event_index: number;
}

/** PoX-1 lock events (stx_lock_events of the `pox` contract) and PoX-2/3/4 operations (pox_events), uniform. */
const SOURCES = {
  v1: (cond: string) => `SELECT locked_address AS stacker, 'stack-stx' AS op, toString(locked_amount) AS amount, unlock_height AS unlock,
      block_height, index_block_hash, microblock_hash, tx_index, event_index
    FROM stx_lock_events WHERE contract_name = 'pox' AND block_height <= {h:UInt32} AND (${cond})
    LIMIT 1 BY tx_id, index_block_hash, microblock_hash, event_index`,
  pox: (cond: string) => `SELECT stacker, toString(name) AS op, toString(lock_amount) AS amount, lock_unlock_height AS unlock,
      block_height, index_block_hash, microblock_hash, tx_index, event_index
    FROM pox_events WHERE pox_version = {v:String} AND block_height <= {h:UInt32} AND (${cond})
    LIMIT 1 BY block_height, tx_index, event_index, index_block_hash, microblock_hash`,
};

/** Of the rows `select` reads, the canonical ones, newest per stacker, ordered by stacker. */
async function newestPerStacker(store: Store, select: string, params: Record<string, unknown>): Promise<LockRow[]> {
  const list = await rows<Record<string, string>>(
    store,
    `SELECT * FROM (${select})
     WHERE (block_height, index_block_hash) IN (SELECT block_height, index_block_hash FROM ${CANONICAL_BLOCKS} WHERE block_height <= {h:UInt32})
       AND (microblock_hash = '' OR (microblock_hash, index_block_hash) IN (SELECT microblock_hash, index_block_hash FROM microblock_canonical FINAL WHERE canonical = 1))
     ORDER BY stacker, block_height DESC, tx_index DESC, event_index DESC
     LIMIT 1 BY stacker`,
    params,
  );
  return list.map((r) => ({ ...(r as unknown as LockRow), block_height: Number(r.block_height), tx_index: Number(r.tx_index), event_index: Number(r.event_index) }));
}

/** Of the rows, those that are still their stacker's newest operation of that PoX version at `height` (read by principal). */
async function stillNewest(store: Store, version: string, candidates: LockRow[], height: number): Promise<Set<LockRow>> {
  if (candidates.length === 0) return new Set();
  const newest = await rows<{ principal: string; block_height: string; tx_index: string; event_index: string }>(
    store,
    `SELECT principal, block_height, tx_index, event_index FROM principal_events
     WHERE principal IN {ps:Array(String)} AND kind = {v:String} AND block_height <= {h:UInt32} AND index_block_hash != ''
       AND (block_height, index_block_hash) IN (SELECT block_height, index_block_hash FROM ${CANONICAL_BLOCKS} WHERE block_height <= {h:UInt32})
     ORDER BY principal, block_height DESC, tx_index DESC, event_index DESC
     LIMIT 1 BY principal`,
    { ps: candidates.map((c) => c.stacker), v: version, h: height },
  );
  const key = (r: { block_height: number | string; tx_index: number | string; event_index: number | string }) => `${r.block_height}/${r.tx_index}/${r.event_index}`;
  const latest = new Map(newest.map((n) => [n.principal, key(n)]));
  return new Set(candidates.filter((c) => latest.get(c.stacker) === key(c)));
}

/** The rows, each flagged `superseded` unless it is still its stacker's newest operation (a handle-unlock is an unlock itself). */
async function flagSuperseded(store: Store, version: string, candidates: LockRow[], height: number): Promise<Array<LockRow & { superseded: boolean }>> {
  const newest = await stillNewest(store, version, candidates, height);
  return candidates.map((c) => ({ ...c, superseded: c.op !== 'handle-unlock' && !newest.has(c) }));
}

/** A lock ending in (lo, hi], or (PoX-2/3/4) a handle-unlock in [lo, hi). */
const ENDING_V1 = 'unlock_height <= {hi:UInt64} AND unlock_height > {lo:UInt64}';
const ENDING = `(name IN {locking:Array(String)} AND lock_unlock_height <= {hi:UInt64} AND lock_unlock_height > {lo:UInt64})
  OR (name = 'handle-unlock' AND lock_unlock_height < {hi:UInt64} AND lock_unlock_height >= {lo:UInt64})`;
/** Everything still locked at a forced unlock. */
const HELD_V1 = 'unlock_height > {lo:UInt64}';
const HELD = `(name != 'handle-unlock' AND lock_unlock_height >= {hi:UInt64}) OR (name = 'handle-unlock' AND lock_unlock_height < {hi:UInt64})`;

export interface StackerUnlock {
  stacker: string;
  amount: bigint;
  /** Listed as the reference lists it, though a later operation superseded the lock (no STX come back here). */
  superseded: boolean;
}

/**
 * Stackers whose STX unlock with the block at `height` (burn height `burn`; its parent's burn
 * height `previousBurn`), in the reference's order: by PoX version, forced unlocks after the
 * version's own, then by stacker.
 */
export async function unlocksAt(store: Store, height: number, burn: number, previousBurn: number, tip: ChainTip): Promise<StackerUnlock[]> {
  // Locks end at burn heights: a block on its parent's burn block ends none.
  if (burn === previousBurn) return [];
  const forcedAt = (unlock: number) => unlock > 0 && burn > unlock && previousBurn <= unlock;
  const inForce = (unlock: number) => unlock === 0 || burn < unlock;
  const params = { h: height, lo: previousBurn, hi: burn, locking: LOCKING_OPS };
  const reads: Array<Promise<Array<LockRow & { superseded?: boolean }>>> = [];
  const v1 = tip.pox_v1_unlock_height;
  if (v1 === 0 || v1 > burn) reads.push(newestPerStacker(store, SOURCES.v1(ENDING_V1), params));
  if (forcedAt(v1)) reads.push(newestPerStacker(store, SOURCES.v1(HELD_V1), params));
  for (const [version, unlock] of [['pox2', tip.pox_v2_unlock_height], ['pox3', tip.pox_v3_unlock_height]] as const) {
    if (inForce(unlock)) reads.push(newestPerStacker(store, SOURCES.pox(ENDING), { ...params, v: version }).then((l) => flagSuperseded(store, version, l, height)));
    if (forcedAt(unlock)) reads.push(newestPerStacker(store, SOURCES.pox(HELD), { ...params, v: version }).then((l) => l.filter((r) => r.op !== 'handle-unlock')));
  }
  reads.push(newestPerStacker(store, SOURCES.pox(ENDING), { ...params, v: 'pox4' }).then((l) => flagSuperseded(store, 'pox4', l, height)));
  return (await Promise.all(reads)).flat().map((r) => ({ stacker: r.stacker, amount: BigInt(r.amount), superseded: r.superseded ?? false }));
}
