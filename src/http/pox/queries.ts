// PoX reads: PoX-2/3/4 operations (pox_events, by version then position; by pool through the
// projection ordered by delegate_to; by cycle through the one ordered by end_cycle_id; a stacker's
// through its principal_events rows), and each cycle's reward set (pox_cycles, pox_signers).
import type { Store } from '../../storage/client.ts';
import { rows, firstRow } from '../reads/query.ts';
import { canonicalPage, canonicalRows } from '../reads/canonical-rows.ts';
import { scopeWhere, SCOPE_PARAMS } from '../address/scope.ts';
import { CANONICAL_BLOCKS } from '../reads/canonical.ts';
import type { PoxOp } from '../../stacks/pox-print.ts';

export type PoxVersion = 'pox2' | 'pox3' | 'pox4';

/** A stored PoX operation (the printed op, src/stacks/pox-print.ts) and where it happened. */
export interface PoxEventRow extends PoxOp {
  block_height: number;
  tx_index: number;
  event_index: number;
  tx_id: string;
  index_block_hash: string;
  microblock_hash: string;
}

const COLUMNS = `block_height, tx_index, event_index, tx_id, index_block_hash, microblock_hash, toString(name) AS name, stacker,
  toString(locked) AS locked, toString(balance) AS balance, toString(burnchain_unlock_height) AS burnchain_unlock_height, data`;

/** Newest first, as the reference lists PoX events. */
const NEWEST = 'block_height DESC, tx_index DESC, event_index DESC';

const parse = (r: Record<string, unknown>): PoxEventRow => ({
  ...(r as unknown as PoxEventRow),
  block_height: Number(r.block_height),
  tx_index: Number(r.tx_index),
  event_index: Number(r.event_index),
});

async function read(store: Store, where: string, params: Record<string, unknown>, paging = ''): Promise<PoxEventRow[]> {
  const list = await rows(store, `SELECT ${COLUMNS} FROM pox_events WHERE ${where} ORDER BY ${NEWEST} LIMIT 1 BY tx_id, index_block_hash, microblock_hash, event_index ${paging}`, params);
  return list.map(parse);
}

/** The latest canonical operations of one PoX version. */
export function poxEventsPage(store: Store, pox: PoxVersion, limit: number, offset: number): Promise<PoxEventRow[]> {
  return canonicalPage(store, (l, o) => read(store, 'pox_version = {v:String}', { v: pox, l, o }, 'LIMIT {l:UInt32} OFFSET {o:UInt32}'), limit, offset);
}

/** The operations of one tx placement (its canonical one). */
export async function poxEventsOfTx(store: Store, pox: PoxVersion, at: { tx_id: string; index_block_hash: string; microblock_hash: string; block_height: number; tx_index: number }): Promise<PoxEventRow[]> {
  return read(
    store,
    'pox_version = {v:String} AND block_height = {h:UInt32} AND tx_index = {i:UInt32} AND tx_id = {id:String} AND index_block_hash = {b:String} AND microblock_hash = {m:String}',
    { v: pox, h: at.block_height, i: at.tx_index, id: at.tx_id, b: at.index_block_hash, m: at.microblock_hash },
  );
}

/** A stacker's canonical operations, found through its address index rows. */
export function poxEventsOfStacker(store: Store, pox: PoxVersion, principal: string): Promise<PoxEventRow[]> {
  const scope = { principal };
  return read(
    store,
    `pox_version = {v:String} AND stacker = {p:String} AND (block_height, tx_index, event_index, tx_id, index_block_hash, microblock_hash) IN (
       SELECT block_height, tx_index, event_index, tx_id, index_block_hash, microblock_hash FROM principal_events WHERE ${scopeWhere('principal_events', scope)} AND kind = {v:String})`,
    { ...SCOPE_PARAMS(scope), v: pox },
  );
}

/** Canonical delegate-stx / revoke-delegate-stx operations naming `pool`, in (after, upTo]. */
export async function poolDelegationEvents(store: Store, pox: PoxVersion, pool: string, afterHeight: number, upToHeight: number): Promise<PoxEventRow[]> {
  return canonicalRows(
    store,
    await read(store, `pox_version = {v:String} AND delegate_to = {p:String} AND name IN ('delegate-stx', 'revoke-delegate-stx') AND block_height > {a:UInt32} AND block_height <= {h:UInt32}`, {
      v: pox,
      p: pool,
      a: afterHeight,
      h: upToHeight,
    }),
  );
}

/** Canonical PoX-4 operations whose lock runs past `cycle` (end_cycle_id > cycle), or that end right after it. */
export async function poxEventsCovering(store: Store, cycle: number): Promise<PoxEventRow[]> {
  return canonicalRows(store, await read(store, `pox_version = 'pox4' AND end_cycle_id > {c:UInt32} AND start_cycle_id <= {c1:UInt32}`, { c: cycle, c1: cycle + 1 }));
}

/** Block height and burn block height of the canonical block at `height`. */
export async function canonicalBlockAt(store: Store, height: number): Promise<{ block_height: number; burn_block_height: number } | undefined> {
  const r = await firstRow<{ block_height: string; burn_block_height: string }>(
    store,
    `SELECT block_height, burn_block_height FROM blocks WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE block_height = {h:UInt32} AND canonical = 1) LIMIT 1`,
    { h: height },
  );
  return r ? { block_height: Number(r.block_height), burn_block_height: Number(r.burn_block_height) } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Reward sets

export interface PoxCycleRow {
  cycle_number: number;
  block_height: number;
  index_block_hash: string;
  total_weight: number;
  total_stacked_amount: string;
  total_signers: number;
}

export interface PoxSignerRow {
  signing_key: string;
  weight: number;
  stacked_amount: string;
  weight_percent: number;
  stacked_amount_percent: number;
}

const CANONICAL_CYCLES = `SELECT * FROM (SELECT cycle_number, block_height, index_block_hash, total_weight, toString(total_stacked_amount) AS total_stacked_amount, total_signers
  FROM pox_cycles WHERE index_block_hash IN (SELECT index_block_hash FROM ${CANONICAL_BLOCKS}) LIMIT 1 BY cycle_number, index_block_hash)`;

const parseCycle = (r: Record<string, unknown>): PoxCycleRow => ({
  ...(r as unknown as PoxCycleRow),
  cycle_number: Number(r.cycle_number),
  block_height: Number(r.block_height),
  total_weight: Number(r.total_weight),
  total_signers: Number(r.total_signers),
});

/** Canonical reward sets, newest cycle first, and how many there are. */
export async function poxCyclesPage(store: Store, limit: number, offset: number): Promise<{ total: number; results: PoxCycleRow[] }> {
  const [list, count] = await Promise.all([
    rows(store, `${CANONICAL_CYCLES} ORDER BY cycle_number DESC LIMIT {l:UInt32} OFFSET {o:UInt32}`, { l: limit, o: offset }),
    firstRow<{ n: string }>(store, `SELECT count() AS n FROM (${CANONICAL_CYCLES})`),
  ]);
  return { total: list.length === 0 ? 0 : Number(count?.n ?? 0), results: list.map(parseCycle) };
}

export async function poxCycle(store: Store, cycle: number): Promise<PoxCycleRow | undefined> {
  const r = await firstRow(store, `SELECT * FROM (${CANONICAL_CYCLES}) WHERE cycle_number = {c:UInt32} LIMIT 1`, { c: cycle });
  return r ? parseCycle(r) : undefined;
}

/** Whether any block (canonical or not) announced the cycle's reward set: the reference's check. */
export async function cycleKnown(store: Store, cycle: number): Promise<boolean> {
  return !!(await firstRow(store, `SELECT 1 FROM pox_cycles WHERE cycle_number = {c:UInt32} LIMIT 1`, { c: cycle }));
}

/** The canonical reward set's signers of a cycle, heaviest first (optionally one signing key). */
export async function poxSigners(store: Store, cycle: number, signingKey?: string): Promise<PoxSignerRow[]> {
  const list = await rows<Record<string, unknown>>(
    store,
    `SELECT signing_key, weight, toString(stacked_amount) AS stacked_amount, weight_percent, stacked_amount_percent
     FROM pox_signers
     WHERE cycle_number = {c:UInt32} ${signingKey === undefined ? '' : 'AND signing_key = {k:String}'}
       AND index_block_hash IN (SELECT index_block_hash FROM pox_cycles WHERE cycle_number = {c:UInt32} AND index_block_hash IN (SELECT index_block_hash FROM ${CANONICAL_BLOCKS}))
     ORDER BY weight DESC, stacked_amount DESC, signing_key
     LIMIT 1 BY signing_key`,
    { c: cycle, k: signingKey ?? '' },
  );
  return list.map((r) => ({ ...(r as unknown as PoxSignerRow), weight: Number(r.weight), weight_percent: Number(r.weight_percent), stacked_amount_percent: Number(r.stacked_amount_percent) }));
}

/** Whether the cycle's reward set names the signing key (any block's). */
export async function signerKnown(store: Store, cycle: number, signingKey: string): Promise<boolean> {
  return !!(await firstRow(store, `SELECT 1 FROM pox_signers WHERE cycle_number = {c:UInt32} AND signing_key = {k:String} LIMIT 1`, { c: cycle, k: signingKey }));
}
