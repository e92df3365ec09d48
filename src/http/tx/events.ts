// Transaction events: read from the five event tables in one UNION ALL with uniform columns, and
// rendered as the reference's TransactionEvent objects.
import type { Store } from '../../storage/client.ts';
import { rows } from '../reads/query.ts';
import type { EventKind, EventRow } from '../../render/rows.ts';
export { formatEvent } from '../../render/events.ts';
export type { EventKind, EventRow } from '../../render/rows.ts';
import { ALL_EVENT_TABLES, EVENT_TABLE_BIT, type EventTable } from '../../storage/event-tables.ts';
import { keyOf, placementKey, resolvePlacements, type PlacementState, type TxKey } from './queries.ts';

export const EVENT_KINDS: readonly EventKind[] = ['smart_contract_log', 'stx_lock', 'stx_asset', 'fungible_token_asset', 'non_fungible_token_asset'];


const TABLE_OF: Record<EventKind, EventTable> = {
  stx_asset: 'stx_events',
  stx_lock: 'stx_lock_events',
  fungible_token_asset: 'ft_events',
  non_fungible_token_asset: 'nft_events',
  smart_contract_log: 'contract_logs',
};

const BASE = 'tx_id, index_block_hash, microblock_hash, event_index, block_height, tx_index';

/** One SELECT per kind with columns a..e (strings). `where` is applied to each table. */
const SELECTS: Record<EventKind, (where: string) => string> = {
  stx_asset: (w) => `SELECT 'stx_asset' AS kind, ${BASE}, toString(asset_event_type) AS a, sender AS b, recipient AS c, toString(amount) AS d, memo AS e FROM stx_events WHERE ${w}`,
  stx_lock: (w) => `SELECT 'stx_lock' AS kind, ${BASE}, toString(locked_amount) AS a, toString(unlock_height) AS b, locked_address AS c, contract_name AS d, '' AS e FROM stx_lock_events WHERE ${w}`,
  fungible_token_asset: (w) => `SELECT 'fungible_token_asset' AS kind, ${BASE}, toString(asset_event_type) AS a, asset_identifier AS b, sender AS c, recipient AS d, toString(amount) AS e FROM ft_events WHERE ${w}`,
  non_fungible_token_asset: (w) => `SELECT 'non_fungible_token_asset' AS kind, ${BASE}, toString(asset_event_type) AS a, asset_identifier AS b, sender AS c, recipient AS d, value AS e FROM nft_events WHERE ${w}`,
  smart_contract_log: (w) => `SELECT 'smart_contract_log' AS kind, ${BASE}, contract_identifier AS a, topic AS b, value AS c, '' AS d, '' AS e FROM contract_logs WHERE ${w}`,
};

/** Runs the union over `kinds`, with a per-table condition (named parameters shared). */
export async function queryEvents(store: Store, kinds: readonly EventKind[], where: string | ((kind: EventKind) => string), params: Record<string, unknown>): Promise<EventRow[]> {
  if (kinds.length === 0) return [];
  const sql = kinds.map((k) => SELECTS[k](typeof where === 'string' ? where : where(k))).join('\nUNION ALL\n');
  const list = await rows<Record<string, unknown>>(store, sql, params);
  // Facts may be stored twice until merged: keep one per (placement, event_index).
  const seen = new Set<string>();
  const out: EventRow[] = [];
  for (const r of list) {
    const id = `${r.tx_id}|${r.index_block_hash}|${r.microblock_hash}|${r.event_index}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ ...(r as unknown as EventRow), event_index: Number(r.event_index), block_height: Number(r.block_height), tx_index: Number(r.tx_index) });
  }
  return out;
}

/** A placement with what its txs row says of its events (unknown: read every table). */
export interface EventSource extends TxKey {
  event_count?: number;
  event_tables?: number;
}

/**
 * Events of the given placements with event_index in [offset, offset + limit), per placement. Only
 * the tables that hold some of them are read, and none for placements with no event in the range.
 */
export async function fetchTxEvents(store: Store, keys: readonly EventSource[], range: { offset: number; limit: number }): Promise<Map<string, EventRow[]>> {
  const out = new Map<string, EventRow[]>(keys.map((k) => [keyOf(k), []]));
  const wanted = keys.filter((k) => k.event_count === undefined || k.event_count > range.offset);
  const tables = wanted.reduce((bits, k) => bits | (k.event_tables ?? ALL_EVENT_TABLES), 0);
  const kinds = EVENT_KINDS.filter((kind) => tables & EVENT_TABLE_BIT[TABLE_OF[kind]]);
  if (kinds.length === 0 || range.limit <= 0) return out;
  const list = await queryEvents(store, kinds, 'tx_id IN {ids:Array(String)} AND event_index >= {lo:UInt32} AND event_index < {hi:UInt32}', {
    ids: [...new Set(wanted.map((k) => k.tx_id))],
    lo: range.offset,
    hi: range.offset + range.limit,
  });
  for (const e of list) out.get(keyOf(e))?.push(e);
  for (const l of out.values()) l.sort((x, y) => x.event_index - y.event_index);
  return out;
}



/** The reference's order of event lists: newest placement first, then event_index descending. */
function byPositionDesc(pos: Map<string, PlacementState>) {
  return (x: EventRow, y: EventRow): number => {
    const a = pos.get(placementKey(x))!;
    const b = pos.get(placementKey(y))!;
    return b.block_height - a.block_height || b.microblock_sequence - a.microblock_sequence || y.tx_index - x.tx_index || y.event_index - x.event_index;
  };
}

/** Per-kind condition of the events that involve `address` (as the reference's /tx/events). */
function addressCondition(kind: EventKind): string {
  switch (kind) {
    case 'stx_lock':
      return 'tx_id IN (SELECT tx_id FROM principal_txs WHERE principal = {a:String}) AND locked_address = {a:String}';
    case 'smart_contract_log':
      // The inner read uses the contract_logs_by_contract projection; the outer one the tx_id key.
      return 'tx_id IN (SELECT tx_id FROM contract_logs WHERE contract_identifier = {a:String}) AND contract_identifier = {a:String}';
    default:
      return 'tx_id IN (SELECT tx_id FROM principal_txs WHERE principal = {a:String}) AND (sender = {a:String} OR recipient = {a:String})';
  }
}

/**
 * A page of the canonical events of one tx or involving one principal, of the given kinds, newest
 * first (block height, microblock sequence, tx index, event index, all descending).
 */
export async function eventsPage(
  store: Store,
  by: { txId: string } | { address: string },
  kinds: readonly EventKind[],
  limit: number,
  offset: number,
): Promise<EventRow[]> {
  const list =
    'txId' in by
      ? await queryEvents(store, kinds, 'tx_id = {id:String}', { id: by.txId })
      : await queryEvents(store, kinds, addressCondition, { a: by.address });
  const states = await resolvePlacements(store, list);
  const canonical = list.filter((e) => {
    const s = states.get(placementKey(e))!;
    return s.canonical && s.microblock_canonical;
  });
  return canonical.sort(byPositionDesc(states)).slice(offset, offset + limit);
}
