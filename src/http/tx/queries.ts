// Transaction reads: the stored placements of a tx (one row per block / microblock that included
// it), their canonical status from the overlay tables, the chain tip, mempool rows and called
// contracts' ABIs. Every read is narrow: txs by tx_id (its primary key), overlay rows by their keys.
import type { Store } from '../../storage/client.ts';
import { rows, firstRow } from '../reads/query.ts';
import type { MempoolRow, MempoolState, PlacedTx, TxKey, TxRow } from '../../render/rows.ts';
import { keyOf } from '../../render/rows.ts';
import { knownCanonical, rememberCanonical, reorgGeneration } from '../reads/known-canonical.ts';





export const TX_COLUMNS = `tx_id, index_block_hash, microblock_hash, block_hash, block_height, burn_block_time, burn_block_height,
  parent_burn_block_time, block_time, parent_block_hash, parent_index_block_hash, microblock_sequence, microblock_parent_hash,
  tx_index, status, raw_tx, raw_result, type_id, sender_address, sponsor_address, nonce, toString(fee_rate) AS fee_rate,
  contract_id, function_name, event_count, event_tables, execution_cost_read_count, execution_cost_read_length, execution_cost_runtime,
  execution_cost_write_count, execution_cost_write_length, vm_error, burnchain_op`;

const NUMERIC = [
  'block_height', 'burn_block_time', 'burn_block_height', 'parent_burn_block_time', 'block_time', 'microblock_sequence', 'tx_index',
  'nonce', 'event_count', 'event_tables', 'execution_cost_read_count', 'execution_cost_read_length', 'execution_cost_runtime',
  'execution_cost_write_count', 'execution_cost_write_length',
] as const;

export function parseTxRow(r: Record<string, unknown>): TxRow {
  const out = { ...r } as Record<string, unknown>;
  for (const k of NUMERIC) out[k] = Number(r[k]);
  return out as unknown as TxRow;
}

const normalize = (id: string): string => (id.startsWith('0x') ? id : `0x${id}`).toLowerCase();
export const normalizeTxId = normalize;

/** Every stored placement of the given txs (deduplicated). */
export async function fetchTxRows(store: Store, txIds: readonly string[]): Promise<TxRow[]> {
  if (txIds.length === 0) return [];
  const list = await rows(store, `SELECT ${TX_COLUMNS} FROM txs WHERE tx_id IN {ids:Array(String)} LIMIT 1 BY tx_id, index_block_hash, microblock_hash`, {
    ids: [...new Set(txIds)],
  });
  return withStreamedTxIndex(store, list.map(parseTxRow));
}

/**
 * A microblock tx streamed before the anchor block that accepted it on arrival shows the tx_index it
 * had in the stream (sql/0004): the reference keeps the streamed row and fills in the anchor block's
 * fields, while an anchor block may number its confirmed microblock txs on from its own.
 */
async function withStreamedTxIndex(store: Store, list: TxRow[]): Promise<TxRow[]> {
  const shown = await streamedTxIndexes(store, list);
  if (shown.size === 0) return list;
  return list.map((r) => {
    const i = shown.get(keyOf(r));
    return i === undefined ? r : { ...r, shown_tx_index: i };
  });
}

/** The streamed tx_index of those placements (anchored microblock txs) that have one, by keyOf. */
export async function streamedTxIndexes(store: Store, list: readonly TxKey[]): Promise<Map<string, number>> {
  const anchored = list.filter((r) => r.index_block_hash && r.microblock_hash);
  if (anchored.length === 0) return new Map();
  const shown = await rows<{ tx_id: string; index_block_hash: string; microblock_hash: string; tx_index: number }>(
    store,
    `SELECT tx_id, index_block_hash, microblock_hash, tx_index FROM streamed_tx_index WHERE tx_id IN {ids:Array(String)}`,
    { ids: [...new Set(anchored.map((r) => r.tx_id))] },
  );
  return new Map(shown.map((s) => [keyOf(s), Number(s.tx_index)]));
}

/** Exactly the given placements (those that exist). */
export async function fetchTxRowsByKey(store: Store, keys: readonly TxKey[]): Promise<TxRow[]> {
  if (keys.length === 0) return [];
  const wanted = new Set(keys.map(keyOf));
  const all = await fetchTxRows(store, keys.map((k) => k.tx_id));
  return all.filter((r) => wanted.has(keyOf(r)));
}

export interface MicroblockStateRow {
  microblock_hash: string;
  microblock_sequence: number;
  canonical: boolean;
  index_block_hash: string;
  block_height: number;
  parent_index_block_hash: string;
}

/** Latest overlay state of the given microblocks. */
export async function microblockStates(store: Store, hashes: readonly string[]): Promise<Map<string, MicroblockStateRow>> {
  const list = hashes.length
    ? await rows<Record<string, string>>(
        store,
        `SELECT microblock_hash, microblock_sequence, canonical, index_block_hash, block_height, parent_index_block_hash
         FROM microblock_canonical FINAL WHERE microblock_hash IN {h:Array(String)}`,
        { h: [...new Set(hashes)] },
      )
    : [];
  return new Map(
    list.map((m) => [
      m.microblock_hash,
      { microblock_hash: m.microblock_hash, microblock_sequence: Number(m.microblock_sequence), canonical: Number(m.canonical) === 1, index_block_hash: m.index_block_hash, block_height: Number(m.block_height), parent_index_block_hash: m.parent_index_block_hash },
    ]),
  );
}

/** Of the given blocks, those canonical now (remembered ones without a read, see known-canonical.ts). */
export async function canonicalBlockSet(store: Store, blocks: ReadonlyArray<{ index_block_hash: string; block_height: number }>): Promise<Set<string>> {
  const anchored = blocks.filter((b) => b.index_block_hash !== '');
  if (anchored.length === 0) return new Set();
  const generation = reorgGeneration();
  const out = knownCanonical(anchored.map((b) => b.index_block_hash));
  const rest = anchored.filter((b) => !out.has(b.index_block_hash));
  if (rest.length === 0) return out;
  const list = await rows<{ index_block_hash: string }>(
    store,
    `SELECT index_block_hash FROM block_canonical FINAL
     WHERE block_height IN {hs:Array(UInt32)} AND index_block_hash IN {ids:Array(String)} AND canonical = 1`,
    { hs: [...new Set(rest.map((b) => b.block_height))], ids: [...new Set(rest.map((b) => b.index_block_hash))] },
  );
  const found = list.map((r) => r.index_block_hash);
  rememberCanonical(found, generation);
  for (const id of found) out.add(id);
  return out;
}

/** Where a placement stands: canonical flags, and height / sequence as the reference shows them. */
export interface PlacementState {
  canonical: boolean;
  microblock_canonical: boolean;
  unanchored: boolean;
  block_height: number;
  microblock_sequence: number;
}

export const placementKey = (p: { index_block_hash: string; microblock_hash: string }): string => `${p.index_block_hash}|${p.microblock_hash}`;

/**
 * Canonical status of placements (block, microblock) from the overlay: `index_block_hash|microblock_hash`
 * -> state. A placement of an anchor block is canonical with its block (and, for a microblock tx,
 * when that block accepted the microblock); one of an unconfirmed microblock (index_block_hash '')
 * while its stream is canonical and no anchor block has accepted it yet (once accepted, the anchor
 * block's own placement is the one that counts). Unconfirmed ones show the next block's height.
 */
export async function resolvePlacements(
  store: Store,
  list: ReadonlyArray<{ index_block_hash: string; microblock_hash: string; block_height: number }>,
): Promise<Map<string, PlacementState>> {
  const out = new Map<string, PlacementState>();
  if (list.length === 0) return out;
  const [blocks, mbs] = await Promise.all([
    canonicalBlockSet(store, list),
    microblockStates(store, list.filter((r) => r.microblock_hash !== '').map((r) => r.microblock_hash)),
  ]);
  for (const r of list) {
    const key = placementKey(r);
    if (out.has(key)) continue;
    const m = r.microblock_hash ? mbs.get(r.microblock_hash) : undefined;
    const microblock_sequence = r.microblock_hash ? (m?.microblock_sequence ?? 0) : 2147483647;
    if (r.index_block_hash === '') {
      const live = !!m && m.canonical && m.index_block_hash === '';
      out.set(key, { canonical: live, microblock_canonical: live, unanchored: true, block_height: m?.block_height ?? r.block_height, microblock_sequence });
    } else {
      const microblock_canonical = !r.microblock_hash || (!!m && m.canonical && m.index_block_hash === r.index_block_hash);
      out.set(key, { canonical: blocks.has(r.index_block_hash), microblock_canonical, unanchored: false, block_height: r.block_height, microblock_sequence });
    }
  }
  return out;
}

/** Resolves canonical status of stored placements (and the height of unconfirmed microblock rows). */
export async function placeTxRows(store: Store, list: readonly TxRow[]): Promise<PlacedTx[]> {
  const states = await resolvePlacements(store, list);
  return list.map((r) => {
    const s = states.get(placementKey(r))!;
    return { ...r, block_height: s.block_height, canonical: s.canonical, microblock_canonical: s.microblock_canonical, unanchored: s.unanchored };
  });
}

/**
 * The canonical tip. FINAL is confined to the last 100 heights below the tallest stored block (a
 * reverse read of one granule), so the tip costs a few granules however long the chain.
 */
export const TIP_SQL = `SELECT block_height, index_block_hash FROM block_canonical FINAL
  WHERE block_height >= greatest(toInt64((SELECT block_height FROM block_canonical ORDER BY block_height DESC LIMIT 1)) - 100, 0) AND canonical = 1
  ORDER BY block_height DESC LIMIT 1`;

/** Height of the canonical tip (0 before any block). */
export async function tipHeight(store: Store): Promise<number> {
  const r = await firstRow<{ block_height: number }>(store, TIP_SQL);
  return Number(r?.block_height ?? 0);
}

/**
 * The placement the reference serves for a tx: canonical in a canonical block (with
 * `includeUnanchored`, also in a live unconfirmed microblock), or none.
 */
export function pickCanonical(placed: readonly PlacedTx[], includeUnanchored: boolean): PlacedTx | undefined {
  const ok = placed.filter((p) => p.canonical && p.microblock_canonical && (includeUnanchored || !p.unanchored));
  // A confirmed placement wins over the streamed one.
  return ok.sort((a, b) => Number(a.unanchored) - Number(b.unanchored) || b.block_height - a.block_height)[0];
}

/** Block hashes of the given index block hashes (parents of unconfirmed microblock txs). */
export async function blockHashesOf(store: Store, indexHashes: readonly string[]): Promise<Map<string, { block_hash: string; block_height: number }>> {
  const ids = [...new Set(indexHashes.filter(Boolean))];
  if (ids.length === 0) return new Map();
  const list = await rows<{ index_block_hash: string; block_hash: string; block_height: number }>(
    store,
    `SELECT index_block_hash, block_hash, block_height FROM blocks WHERE index_block_hash IN {ids:Array(String)} LIMIT 1 BY index_block_hash`,
    { ids },
  );
  return new Map(list.map((b) => [b.index_block_hash, { block_hash: b.block_hash, block_height: Number(b.block_height) }]));
}

// ---------------------------------------------------------------------------------------------
// Mempool

export type { MempoolRow, MempoolState, PlacedTx, TxKey, TxRow } from '../../render/rows.ts';
export { keyOf } from '../../render/rows.ts';



export const MEMPOOL_COLUMNS = `m.tx_id AS tx_id, m.raw_tx AS raw_tx, m.receipt_time AS receipt_time, m.sender_address AS sender_address,
  m.sponsor_address AS sponsor_address, m.nonce AS nonce, toString(m.fee_rate) AS fee_rate, m.type_id AS type_id,
  m.contract_id AS contract_id, m.function_name AS function_name, m.log_id AS log_id`;

export function parseMempoolRow(r: Record<string, unknown>): MempoolRow {
  return {
    ...(r as unknown as MempoolRow),
    receipt_time: Number(r.receipt_time),
    nonce: Number(r.nonce),
    log_id: Number(r.log_id),
    status: ((r.status as string) || 'pending') as MempoolState,
    reason: (r.reason as string) ?? '',
    replaced_by: (r.replaced_by as string) ?? '',
  };
}

/** Mempool rows of the given txs with their latest status (any status). */
export async function fetchMempoolRows(store: Store, txIds: readonly string[]): Promise<Map<string, MempoolRow>> {
  if (txIds.length === 0) return new Map();
  const ids = [...new Set(txIds)];
  const [list, states] = await Promise.all([
    rows(store, `SELECT ${MEMPOOL_COLUMNS} FROM mempool_txs AS m WHERE m.tx_id IN {ids:Array(String)} ORDER BY m.log_id DESC LIMIT 1 BY m.tx_id`, { ids }),
    rows<{ tx_id: string; status: string; reason: string; replaced_by: string }>(
      store,
      `SELECT tx_id, status, reason, replaced_by FROM mempool_status FINAL WHERE tx_id IN {ids:Array(String)}`,
      { ids },
    ),
  ]);
  const byId = new Map(states.map((s) => [s.tx_id, s]));
  return new Map(list.map((r) => [r.tx_id as string, parseMempoolRow({ ...r, ...(byId.get(r.tx_id as string) ?? {}) })]));
}

/** The first of the given txs' stored raw bytes: mined (any placement) or mempool. */
export async function fetchRawTx(store: Store, txId: string): Promise<string | undefined> {
  const mined = await firstRow<{ raw_tx: string }>(store, `SELECT raw_tx FROM txs WHERE tx_id = {id:String} LIMIT 1`, { id: txId });
  if (mined) return mined.raw_tx;
  return (await firstRow<{ raw_tx: string }>(store, `SELECT raw_tx FROM mempool_txs WHERE tx_id = {id:String} LIMIT 1`, { id: txId }))?.raw_tx;
}
