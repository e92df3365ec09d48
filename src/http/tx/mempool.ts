// Mempool reads: the pending set (the reference's `pruned = false` rows), dropped txs, and the
// stats / fee priorities computed over the pending set. The pending set is bounded by the node's
// mempool, so lists are filtered and ordered here after one read of its narrow columns.
import type { Store } from '../../storage/client.ts';
import { rows } from '../reads/query.ts';
import { MEMPOOL_COLUMNS, parseMempoolRow, type MempoolRow } from './queries.ts';
import { getTip, unanchoredTxs } from './lists.ts';
import { summarizeTx } from '../../stacks/tx-summary.ts';
import { principalsOf } from '../../stacks/tx-summary.ts';

/** Every principal a tx names (sender, sponsor, recipient, contract). */
const namedBy = (rawTx: string): string[] => principalsOf(summarizeTx(rawTx));

/** Narrow columns of a mempool tx for filtering and ordering. */
export interface MempoolEntry {
  tx_id: string;
  receipt_time: number;
  sender_address: string;
  fee_rate: bigint;
  type_id: string;
  contract_id: string;
  /** Serialized size in bytes. */
  tx_size: number;
  log_id: number;
  status: string;
  reason: string;
}

/** The fields a pending tx is ordered and matched to a principal by. */
interface PendingKey {
  tx_id: string;
  receipt_time: number;
  log_id: number;
  sender_address: string;
  contract_id: string;
}

/** Whether a pending tx is in a principal's mempool list: the principal sends it, is its contract,
 *  or receives it (`recipient`: a token transfer's recipient, else undefined). */
export const pendingNames = (e: PendingKey, principal: string, recipient: string | undefined): boolean =>
  e.sender_address === principal || e.contract_id === principal || recipient === principal;

// Ties are left to the database by the reference, which returns them in insertion order: here by
// arrival whatever the direction, then by id.
const byArrivalThenId = (a: PendingKey, b: PendingKey): number => a.log_id - b.log_id || (a.tx_id < b.tx_id ? -1 : a.tx_id > b.tx_id ? 1 : 0);

/** Newest receipt first, the order of the address mempool lists. */
export const newestFirst = (a: PendingKey, b: PendingKey): number => b.receipt_time - a.receipt_time || byArrivalThenId(a, b);

export type MempoolOrderBy = 'age' | 'size' | 'fee';

/** The mempool list's order: by receipt time (age), size or fee rate, ties by arrival then id. */
export function mempoolOrder(orderBy: MempoolOrderBy | undefined, desc: boolean) {
  const sign = desc ? -1 : 1;
  return (a: MempoolEntry, b: MempoolEntry): number => {
    const first =
      orderBy === 'fee' ? (a.fee_rate < b.fee_rate ? -1 : a.fee_rate > b.fee_rate ? 1 : 0) : orderBy === 'size' ? a.tx_size - b.tx_size : a.receipt_time - b.receipt_time;
    return sign * first || byArrivalThenId(a, b);
  };
}

const ENTRY_COLUMNS = `m.tx_id AS tx_id, m.receipt_time AS receipt_time, m.sender_address AS sender_address, toString(m.fee_rate) AS fee_rate,
  m.type_id AS type_id, m.contract_id AS contract_id, intDiv(length(m.raw_tx) - 2, 2) AS tx_size`;

function parseEntry(r: Record<string, unknown>): MempoolEntry {
  return {
    tx_id: r.tx_id as string,
    receipt_time: Number(r.receipt_time),
    sender_address: r.sender_address as string,
    fee_rate: BigInt(r.fee_rate as string),
    type_id: r.type_id as string,
    contract_id: r.contract_id as string,
    tx_size: Number(r.tx_size),
    log_id: Number(r.log_id),
    status: (r.status as string) ?? 'pending',
    reason: (r.reason as string) ?? '',
  };
}

/**
 * Mempool txs among `candidates` (a subquery of tx ids; all when omitted) whose latest status is one
 * of `statuses`, plus `extra` ids (any status). `log_id` is the entry that first put the tx in the
 * mempool (mempool_status versions are log ids). The candidates narrow both tables to key reads.
 */
async function entriesWhere(store: Store, statuses: string[], extra: string[], candidates?: string, params: Record<string, unknown> = {}): Promise<MempoolEntry[]> {
  const among = candidates === undefined ? '' : `WHERE tx_id IN (${candidates})`;
  const list = await rows<Record<string, unknown>>(
    store,
    `SELECT ${ENTRY_COLUMNS}, s.status AS status, s.reason AS reason, s.first AS log_id
     FROM mempool_txs AS m
     INNER JOIN (SELECT tx_id, toString(argMax(status, version)) AS status, argMax(reason, version) AS reason, min(version) AS first
                 FROM mempool_status ${among} GROUP BY tx_id
                 HAVING status IN {st:Array(String)} OR tx_id IN {extra:Array(String)}) AS s ON s.tx_id = m.tx_id
     ${candidates === undefined ? '' : `WHERE m.tx_id IN (${candidates})`}
     LIMIT 1 BY m.tx_id`,
    { ...params, st: statuses, extra },
  );
  return list.map(parseEntry);
}

/** Candidates for the pending set: the current pending table (see sql/0003), narrowed to the txs
 *  naming {p:String} when a principal is given, and the `extra` ids. */
function pendingCandidates(principal: string | undefined): string {
  const pending = principal === undefined ? `SELECT tx_id FROM mempool_pending FINAL` : `SELECT tx_id FROM mempool_pending FINAL WHERE has(principals, {p:String})`;
  return `${pending} UNION ALL SELECT arrayJoin({extra:Array(String)})`;
}

/**
 * The pending mempool. Without `includeUnanchored`, txs mined only in unconfirmed microblocks are
 * still pending (as the reference treats them); `countable` excludes those, as the reference's
 * mempool counter does. With `principal`, only txs naming it (read through the mempool's address index).
 */
export async function pendingEntries(store: Store, includeUnanchored: boolean, principal?: string): Promise<{ entries: MempoolEntry[]; countable: number }> {
  const unanchored = includeUnanchored ? [] : await unanchoredTxs(store, await getTip(store));
  // Txs mined only in unconfirmed microblocks are pending too; with a principal, those naming it
  // (the principals a mempool tx names, as the pending set keeps them: pending-entry.ts).
  const extra = unanchored.filter((t) => principal === undefined || namedBy(t.raw_tx).includes(principal)).map((t) => t.tx_id);
  const all = await entriesWhere(store, ['pending'], extra, pendingCandidates(principal), { p: principal ?? '' });
  const entries = all.filter((e) => e.status === 'pending' || extra.includes(e.tx_id));
  return { entries, countable: entries.filter((e) => e.status === 'pending').length };
}

/** Dropped mempool txs (not mined since), newest receipt first. */
export async function droppedEntries(store: Store): Promise<MempoolEntry[]> {
  const list = await entriesWhere(store, ['dropped'], []);
  return list.sort((a, b) => b.receipt_time - a.receipt_time || b.log_id - a.log_id);
}

/** Full mempool rows (with raw_tx) of the given ids, in that order. */
export async function mempoolRowsOf(store: Store, entries: readonly MempoolEntry[]): Promise<MempoolRow[]> {
  if (entries.length === 0) return [];
  const list = await rows<Record<string, unknown>>(
    store,
    `SELECT ${MEMPOOL_COLUMNS} FROM mempool_txs AS m WHERE m.tx_id IN {ids:Array(String)} ORDER BY m.log_id DESC LIMIT 1 BY m.tx_id`,
    { ids: entries.map((e) => e.tx_id) },
  );
  const byId = new Map(list.map((r) => [r.tx_id as string, r]));
  return entries
    .filter((e) => byId.has(e.tx_id))
    .map((e) => parseMempoolRow({ ...byId.get(e.tx_id)!, status: e.status === 'dropped' ? 'dropped' : 'pending', reason: e.reason, replaced_by: '' }));
}

/** Raw bytes of the given mempool txs (for recipient filters). */
export async function mempoolRawTxs(store: Store, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const list = await rows<{ tx_id: string; raw_tx: string }>(store, `SELECT tx_id, raw_tx FROM mempool_txs WHERE tx_id IN {ids:Array(String)} LIMIT 1 BY tx_id`, { ids: [...ids] });
  return new Map(list.map((r) => [r.tx_id, r.raw_tx]));
}

/**
 * Chain height when each tx was received (the reference's receipt_block_height): the tallest block
 * made canonical by an event-log entry before the one that brought the tx (block_canonical versions
 * are log ids).
 */
export async function receiptHeights(store: Store, entries: readonly MempoolEntry[]): Promise<Map<string, number>> {
  if (entries.length === 0) return new Map();
  const list = await rows<{ tx_id: string; h: number }>(
    store,
    `SELECT m.tx_id AS tx_id, b.h AS h
     FROM (SELECT arrayJoin(arrayZip({ids:Array(String)}, {logs:Array(UInt64)})) AS t, t.1 AS tx_id, t.2 AS log_id, 0 AS k) AS m
     ASOF LEFT JOIN (SELECT 0 AS k, version, max(block_height) OVER (ORDER BY version ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS h
                     FROM block_canonical WHERE canonical = 1) AS b
     ON m.k = b.k AND m.log_id > b.version`,
    { ids: entries.map((e) => e.tx_id), logs: entries.map((e) => e.log_id) },
  );
  return new Map(list.map((r) => [r.tx_id, Number(r.h)]));
}

/** Linear-interpolated percentile (PostgreSQL's percentile_cont) of sorted values. */
export function percentileCont(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}
