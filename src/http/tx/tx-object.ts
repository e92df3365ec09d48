// The reference API's full transaction object for a list of tx ids: the canonical mined placement
// (block fields, canonical flags, status, result, costs, events page, decoded payload with the
// called contract's ABI), or, for a tx not canonically mined, its mempool object (pending or
// dropped) as the reference's tx lookups fall back to. Shared by every route family that lists
// transactions (tx, block, address, microblock).
//
//   getTxObjects(store, ids, opts)      tx_id -> object (mined canonical, else mempool)
//   getMinedTxObjects(store, keys, opts) exact placements (tx_id, index_block_hash, microblock_hash)
//   renderPlacedTxs / renderMempoolTxs   rows already fetched -> objects
import type { Store } from '../../storage/client.ts';
import { contractAbis } from './abi-cache.ts';
import { fetchTxEvents, formatEvent, type EventRow } from './events.ts';
import { formatMempoolTx, formatMinedTx } from '../../render/tx.ts';
import {
  blockHashesOf,
  fetchMempoolRows,
  fetchTxRows,
  fetchTxRowsByKey,
  keyOf,
  normalizeTxId,
  pickCanonical,
  placeTxRows,
  type MempoolRow,
  type PlacedTx,
  type TxKey,
} from './queries.ts';

export type { TxKey, PlacedTx, MempoolRow } from './queries.ts';

export interface TxObjectOptions {
  /** Also serve txs of unconfirmed microblocks as mined (the reference's `unanchored=true`). */
  includeUnanchored?: boolean;
  /** Omit contract_call.function_args (the reference's `exclude_function_args=true`). */
  excludeFunctionArgs?: boolean;
  /** Fill `events` with the events whose event_index is in [offset, offset + limit); else `events: []`. */
  events?: { offset: number; limit: number };
  /** Serve txs that are not canonically mined from the mempool (default true). */
  mempool?: boolean;
  /**
   * Render contract calls with the called contract's ABI (function_signature, arg names and ABI
   * types; default true). The reference's v2 block-tx list reads no ABI: '' and value types.
   */
  withAbi?: boolean;
}

/** A Transaction or MempoolTransaction object as the reference renders it. */
export type TxObject = Record<string, unknown>;

/** Events already being read for (a superset of) the placements, keyed by placement. */
type EventsRead = Promise<Map<string, EventRow[]>>;

/** Renders placements already fetched and resolved (in the given order). */
export async function renderPlacedTxs(store: Store, placed: readonly PlacedTx[], opts: TxObjectOptions = {}, eventsRead?: EventsRead): Promise<TxObject[]> {
  if (placed.length === 0) return [];
  const calls = opts.withAbi === false ? [] : placed.filter((p) => p.type_id === 'contract_call' && p.contract_id).map((p) => p.contract_id);
  const synthetic = placed.filter((p) => p.raw_tx === '0x00');
  const [abis, parents, events, syntheticEvents] = await Promise.all([
    contractAbis(store, calls),
    blockHashesOf(store, placed.filter((p) => p.unanchored).map((p) => p.parent_index_block_hash)),
    opts.events ? (eventsRead ?? fetchTxEvents(store, placed, opts.events)) : Promise.resolve(undefined),
    // Bitcoin-originated txs have no bytes: their events say what they did.
    synthetic.length ? fetchTxEvents(store, synthetic, { offset: 0, limit: 100 }) : Promise.resolve(undefined),
  ]);
  return placed.map((p) => {
    const obj = formatMinedTx(
      p,
      { abi: p.type_id === 'contract_call' ? abis.get(p.contract_id) : undefined, excludeFunctionArgs: opts.excludeFunctionArgs },
      { parentBlockHash: parents.get(p.parent_index_block_hash)?.block_hash, events: syntheticEvents?.get(keyOf(p)) },
    );
    if (events) obj.events = (events.get(keyOf(p)) ?? []).map(formatEvent);
    return obj;
  });
}

/** Renders mempool rows (in the given order). */
export async function renderMempoolTxs(store: Store, list: readonly MempoolRow[], opts: Pick<TxObjectOptions, 'excludeFunctionArgs' | 'withAbi'> = {}): Promise<TxObject[]> {
  const abis = await contractAbis(store, opts.withAbi === false ? [] : list.filter((m) => m.type_id === 'contract_call').map((m) => m.contract_id));
  return list.map((m) => formatMempoolTx(m, { abi: m.type_id === 'contract_call' ? abis.get(m.contract_id) : undefined, excludeFunctionArgs: opts.excludeFunctionArgs }));
}

/** The canonical placement of each tx (ids normalized), for those canonically mined. */
export async function canonicalPlacements(store: Store, txIds: readonly string[], includeUnanchored = false): Promise<Map<string, PlacedTx>> {
  return pickPlacements(await placeTxRows(store, await fetchTxRows(store, [...new Set(txIds.map(normalizeTxId))])), includeUnanchored);
}

function pickPlacements(placed: readonly PlacedTx[], includeUnanchored: boolean): Map<string, PlacedTx> {
  const byId = new Map<string, PlacedTx[]>();
  for (const p of placed) byId.set(p.tx_id, [...(byId.get(p.tx_id) ?? []), p]);
  const out = new Map<string, PlacedTx>();
  for (const [id, list] of byId) {
    const pick = pickCanonical(list, includeUnanchored);
    if (pick) out.set(id, pick);
  }
  return out;
}

/**
 * tx_id -> tx object for the ids found: the canonical mined tx, else (unless `mempool: false`) the
 * mempool tx. Ids may come with or without 0x; the map is keyed by normalized (0x, lowercase) id.
 */
export async function getTxObjects(store: Store, txIds: readonly string[], opts: TxObjectOptions = {}): Promise<Map<string, TxObject>> {
  const ids = [...new Set(txIds.map(normalizeTxId))];
  const txRows = await fetchTxRows(store, ids);
  // Events are keyed by placement, so their read runs beside the canonical check, not after it.
  const eventsRead = opts.events ? fetchTxEvents(store, txRows, opts.events) : undefined;
  eventsRead?.catch(() => {}); // awaited below; not left unhandled if the check fails first
  const mined = pickPlacements(await placeTxRows(store, txRows), opts.includeUnanchored ?? false);
  const minedIds = ids.filter((id) => mined.has(id));
  const rest = ids.filter((id) => !mined.has(id));
  const [minedObjs, mempoolRows] = await Promise.all([
    renderPlacedTxs(store, minedIds.map((id) => mined.get(id)!), opts, eventsRead),
    opts.mempool === false ? Promise.resolve(new Map<string, MempoolRow>()) : fetchMempoolRows(store, rest),
  ]);
  const mempoolList = rest.map((id) => mempoolRows.get(id)).filter((m): m is MempoolRow => !!m);
  const mempoolObjs = await renderMempoolTxs(store, mempoolList, opts);
  const out = new Map<string, TxObject>();
  minedIds.forEach((id, i) => out.set(id, minedObjs[i]));
  mempoolList.forEach((m, i) => out.set(m.tx_id, mempoolObjs[i]));
  return out;
}

/** One tx (see getTxObjects). */
export async function getTxObject(store: Store, txId: string, opts: TxObjectOptions = {}): Promise<TxObject | undefined> {
  return (await getTxObjects(store, [txId], opts)).get(normalizeTxId(txId));
}

/**
 * Mined tx objects for exact placements (whatever their canonical status, which the objects
 * report), in the order given; placements not stored are skipped.
 */
export async function getMinedTxObjects(store: Store, keys: readonly TxKey[], opts: Omit<TxObjectOptions, 'mempool' | 'includeUnanchored'> = {}): Promise<TxObject[]> {
  const placed = await placeTxRows(store, await fetchTxRowsByKey(store, keys));
  const byKey = new Map(placed.map((p) => [keyOf(p), p]));
  const ordered = keys.map((k) => byKey.get(keyOf(k))).filter((p): p is PlacedTx => !!p);
  return renderPlacedTxs(store, ordered, opts);
}
