// Address history reads: pages of principal_txs (the txs a principal took part in) and
// principal_events (its asset events), canonical only, newest first, with totals.
import type { Store } from '../../storage/client.ts';
import { rows, firstRow } from '../reads/query.ts';
import { scopeWhere, SCOPE_PARAMS, NEWEST_FIRST, type Scope } from './scope.ts';
import type { PrincipalEventRow } from './format.ts';
import { ROLE, type RoleFilter } from '../../stacks/roles.ts';


export function rolesWhere(f: RoleFilter): string {
  const any = `bitAnd(roles, ${f.any}) != 0`;
  return `${any} AND (bitAnd(roles, ${ROLE.BOOT}) = 0 OR bitAnd(roles, ${f.boot}) != 0)`;
}

export interface PrincipalTxRow {
  tx_id: string;
  index_block_hash: string;
  microblock_hash: string;
  block_height: number;
  microblock_sequence: number;
  tx_index: number;
  stx_sent: string;
  stx_received: string;
  roles: number;
}

/** Block 1's own tx before a relabelled boot receipt with the same tx_index (as the block lists). */
const TIE = `bitAnd(roles, ${ROLE.BOOT}), tx_id`;

const TX_COLUMNS = `tx_id, index_block_hash, microblock_hash, block_height, microblock_sequence, tx_index,
  toString(stx_sent) AS stx_sent, toString(stx_received) AS stx_received, roles`;

function parseTx(r: Record<string, unknown>): PrincipalTxRow {
  return {
    ...(r as unknown as PrincipalTxRow),
    block_height: Number(r.block_height),
    microblock_sequence: Number(r.microblock_sequence),
    tx_index: Number(r.tx_index),
    roles: Number(r.roles),
  };
}

/**
 * A page of the principal's txs whose roles intersect `roles`, and how many there are in all. As
 * the reference counts with the page's rows (COUNT(*) OVER ()), an empty page has total 0; so do
 * the other address lists.
 */
export async function principalTxPage(store: Store, scope: Scope, roles: RoleFilter, page: { limit: number; offset: number } | 'all'): Promise<{ total: number; results: PrincipalTxRow[] }> {
  const where = `${scopeWhere('principal_txs', scope)} AND ${rolesWhere(roles)}`;
  const params = SCOPE_PARAMS(scope);
  const paging = page === 'all' ? '' : 'LIMIT {limit:UInt32} OFFSET {offset:UInt32}';
  const list =
    page !== 'all' && page.limit === 0
      ? []
      : await rows(store, `SELECT ${TX_COLUMNS} FROM principal_txs FINAL WHERE ${where} ORDER BY ${NEWEST_FIRST}, ${TIE} ${paging}`, { ...params, ...(page === 'all' ? {} : page) });
  const total = await totalOf(store, 'principal_txs', where, params, page, list.length);
  return { total, results: list.map(parseTx) };
}

/** A list's total: 0 for an empty page (see above), known without counting for a short page. */
async function totalOf(store: Store, table: string, where: string, params: Record<string, unknown>, page: { limit: number; offset: number } | 'all', got: number): Promise<number> {
  if (got === 0) return 0;
  if (page === 'all') return got;
  if (got < page.limit) return page.offset + got;
  const r = await firstRow<{ n: string }>(store, `SELECT count() AS n FROM ${table} FINAL WHERE ${where}`, params);
  return Number(r?.n ?? 0);
}

/** The principal's row of one placed tx, if its roles intersect `roles`. */
export async function principalTxAt(
  store: Store,
  principal: string,
  at: { tx_id: string; index_block_hash: string; microblock_hash: string; block_height: number; microblock_sequence: number; tx_index: number },
  roles: RoleFilter,
): Promise<PrincipalTxRow | undefined> {
  // Rows of unconfirmed microblocks are stored at height 0.
  const height = at.index_block_hash === '' ? 0 : at.block_height;
  const r = await firstRow(
    store,
    `SELECT ${TX_COLUMNS} FROM principal_txs FINAL
     WHERE principal = {p:String} AND block_height = {h:UInt32} AND microblock_sequence = {s:UInt32} AND tx_index = {i:UInt32}
       AND index_block_hash = {ibh:String} AND microblock_hash = {mbh:String} AND tx_id = {tx:String} AND ${rolesWhere(roles)}`,
    { p: principal, h: height, s: at.microblock_sequence, i: at.tx_index, ibh: at.index_block_hash, mbh: at.microblock_hash, tx: at.tx_id },
  );
  return r ? parseTx(r) : undefined;
}

const EVENT_COLUMNS = `tx_id, index_block_hash, microblock_hash, block_height, tx_index, event_index, kind, asset_event_type, asset_identifier,
  sender, recipient, toString(amount) AS amount, value, memo, toString(unlock_height) AS unlock_height`;

function parseEvent(r: Record<string, unknown>): PrincipalEventRow {
  return { ...(r as unknown as PrincipalEventRow), block_height: Number(r.block_height), tx_index: Number(r.tx_index), event_index: Number(r.event_index) };
}

/** A page of the principal's events of the given kinds, newest first, and their number. */
export async function principalEventPage(
  store: Store,
  scope: Scope,
  kinds: string[],
  page: { limit: number; offset: number },
  withinTx = 'event_index DESC',
): Promise<{ total: number; results: PrincipalEventRow[] }> {
  const where = `${scopeWhere('principal_events', scope)} AND kind IN {kinds:Array(String)}`;
  const params = { ...SCOPE_PARAMS(scope), kinds, ...page };
  const list =
    page.limit === 0
      ? []
      : await rows(store, `SELECT ${EVENT_COLUMNS} FROM principal_events FINAL WHERE ${where} ORDER BY ${NEWEST_FIRST}, ${withinTx} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`, params);
  const total = await totalOf(store, 'principal_events', where, params, page, list.length);
  return { total, results: list.map(parseEvent) };
}

/** The principal's events (of `kinds`) in the given placements, keyed by tx_id|index_block_hash|microblock_hash. */
export async function principalEventsOf(
  store: Store,
  principal: string,
  txs: ReadonlyArray<{ tx_id: string; index_block_hash: string; microblock_hash: string; block_height: number }>,
  kinds: string[],
): Promise<Map<string, PrincipalEventRow[]>> {
  const key = (t: { tx_id: string; index_block_hash: string; microblock_hash: string }) => `${t.tx_id}|${t.index_block_hash}|${t.microblock_hash}`;
  const out = new Map<string, PrincipalEventRow[]>(txs.map((t) => [key(t), []]));
  if (txs.length === 0) return out;
  // The heights narrow the read to the page's part of the principal's key range (rows of
  // unconfirmed microblocks are stored at height 0).
  const heights = [...new Set(txs.map((t) => (t.index_block_hash === '' ? 0 : t.block_height)))];
  const list = await rows(
    store,
    `SELECT ${EVENT_COLUMNS} FROM principal_events FINAL
     WHERE principal = {p:String} AND block_height IN {hs:Array(UInt32)} AND tx_id IN {ids:Array(String)} AND index_block_hash IN {ibh:Array(String)}
       AND kind IN {kinds:Array(String)}`,
    { p: principal, hs: heights, ids: [...new Set(txs.map((t) => t.tx_id))], ibh: [...new Set(txs.map((t) => t.index_block_hash))], kinds },
  );
  for (const r of list.map(parseEvent)) out.get(key(r))?.push(r);
  for (const l of out.values()) l.sort((a, b) => a.event_index - b.event_index);
  return out;
}
