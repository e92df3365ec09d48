// Contract reads: a contract's deploys (contracts, by contract_id), its print events newest first
// (the contract_logs_by_contract projection pages their keys; values are then read by tx_id), the
// candidates of a trait (contract_functions, by function name), and deploy status (txs by tx_id,
// else the pending mempool through its address index).
import type { Store } from '../../storage/client.ts';
import { rows } from '../reads/query.ts';
import { canonicalEventPage, canonicalRows } from '../reads/canonical-rows.ts';
import { queryEvents, type EventRow } from '../tx/events.ts';
import { placementKey, resolvePlacements, type PlacementState } from '../tx/queries.ts';

export interface ContractRow {
  contract_id: string;
  tx_id: string;
  index_block_hash: string;
  microblock_hash: string;
  block_height: number;
  clarity_version: number | null;
  source_code: string;
  abi: string | null;
}

export interface PlacedContract extends ContractRow {
  canonical: boolean;
  microblock_canonical: boolean;
}

const COLUMNS = 'contract_id, tx_id, index_block_hash, microblock_hash, block_height, clarity_version, source_code, abi';

const parse = (r: Record<string, unknown>): ContractRow => ({
  ...(r as unknown as ContractRow),
  block_height: Number(r.block_height),
  clarity_version: r.clarity_version === null ? null : Number(r.clarity_version),
});

async function place(store: Store, list: ContractRow[]): Promise<PlacedContract[]> {
  const states = await resolvePlacements(store, list);
  const none: PlacementState = { canonical: false, microblock_canonical: false, unanchored: false, block_height: 0, microblock_sequence: 0 };
  return list.map((r) => {
    const s = states.get(placementKey(r)) ?? none;
    return { ...r, canonical: s.canonical, microblock_canonical: s.microblock_canonical };
  });
}

/** Every stored deploy of a contract id, with its canonical status. */
export async function contractDeploys(store: Store, contractId: string): Promise<PlacedContract[]> {
  const list = await rows(store, `SELECT ${COLUMNS} FROM contracts WHERE contract_id = {id:String} LIMIT 1 BY index_block_hash, microblock_hash`, { id: contractId });
  return place(store, list.map(parse));
}

/** The canonical deploys of the given contract ids. */
export async function canonicalContracts(store: Store, contractIds: readonly string[]): Promise<ContractRow[]> {
  if (contractIds.length === 0) return [];
  const list = await rows(store, `SELECT ${COLUMNS} FROM contracts WHERE contract_id IN {ids:Array(String)} LIMIT 1 BY contract_id, index_block_hash, microblock_hash`, { ids: [...new Set(contractIds)] });
  return canonicalRows(store, list.map(parse));
}

/** Contracts whose ABI has a function of every name in `names` (candidates of a trait). */
export async function contractsWithFunctions(store: Store, names: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(names)];
  const list = await rows<{ contract_id: string }>(
    store,
    `SELECT contract_id FROM contract_functions WHERE name IN {n:Array(String)} GROUP BY contract_id HAVING uniqExact(name) = {k:UInt32}`,
    { n: wanted, k: wanted.length },
  );
  return list.map((r) => r.contract_id);
}

/** Every contract with an ABI (a trait without functions matches them all). */
export async function contractsWithAbi(store: Store): Promise<string[]> {
  return (await rows<{ contract_id: string }>(store, `SELECT DISTINCT contract_id FROM contract_functions`)).map((r) => r.contract_id);
}

interface LogKey {
  tx_id: string;
  index_block_hash: string;
  microblock_hash: string;
  block_height: number;
  tx_index: number;
  event_index: number;
}

/** A page of the contract's canonical print events, newest first as the reference lists them (see canonicalEventPage). */
export async function contractEventsPage(store: Store, contractId: string, limit: number, offset: number): Promise<EventRow[]> {
  if (limit === 0) return [];
  const keys = await canonicalEventPage(
    store,
    async (l, o) =>
      (
        await rows<Record<string, unknown>>(
          store,
          `SELECT tx_id, index_block_hash, microblock_hash, block_height, tx_index, event_index FROM contract_logs
           WHERE contract_identifier = {c:String} ORDER BY block_height DESC, tx_index DESC, event_index DESC
           LIMIT 1 BY tx_id, index_block_hash, microblock_hash, event_index LIMIT {l:UInt32} OFFSET {o:UInt32}`,
          { c: contractId, l, o },
        )
      ).map((r): LogKey => ({ ...(r as unknown as LogKey), block_height: Number(r.block_height), tx_index: Number(r.tx_index), event_index: Number(r.event_index) })),
    limit,
    offset,
  );
  if (keys.length === 0) return [];
  const events = await queryEvents(store, ['smart_contract_log'], 'tx_id IN {ids:Array(String)} AND contract_identifier = {c:String}', { ids: [...new Set(keys.map((k) => k.tx_id))], c: contractId });
  const byKey = new Map(events.map((e) => [`${e.tx_id}|${e.index_block_hash}|${e.microblock_hash}|${e.event_index}`, e]));
  return keys.map((k) => byKey.get(`${k.tx_id}|${k.index_block_hash}|${k.microblock_hash}|${k.event_index}`)).filter((e): e is EventRow => !!e);
}

export interface DeployStatus {
  contract_id: string;
  tx_id: string;
  status: string;
  block_height?: number;
}

/**
 * Status of each contract's deploy: its newest canonical deploy tx (any outcome); else a pending
 * mempool deploy, the lowest nonce first.
 */
export async function deployStatuses(store: Store, contractIds: readonly string[]): Promise<DeployStatus[]> {
  const ids = [...new Set(contractIds)];
  if (ids.length === 0) return [];
  const deploys = await rows<Record<string, unknown>>(
    store,
    `SELECT c.contract_id AS contract_id, t.tx_id AS tx_id, t.index_block_hash AS index_block_hash, t.microblock_hash AS microblock_hash, t.block_height AS block_height,
            t.microblock_sequence AS microblock_sequence, t.tx_index AS tx_index, toString(t.status) AS status
     FROM (SELECT DISTINCT contract_id, tx_id FROM contracts WHERE contract_id IN {ids:Array(String)}) AS c
     INNER JOIN (SELECT tx_id, index_block_hash, microblock_hash, block_height, microblock_sequence, tx_index, status FROM txs
                 WHERE tx_id IN (SELECT tx_id FROM contracts WHERE contract_id IN {ids:Array(String)}) LIMIT 1 BY tx_id, index_block_hash, microblock_hash) AS t
     ON t.tx_id = c.tx_id`,
    { ids },
  );
  const placed = await canonicalRows(
    store,
    deploys.map((d) => ({ ...d, block_height: Number(d.block_height), microblock_sequence: Number(d.microblock_sequence), tx_index: Number(d.tx_index) }) as Record<string, unknown> & LogKey & { microblock_sequence: number; status: string; contract_id: string }),
  );
  placed.sort((a, b) => b.block_height - a.block_height || b.microblock_sequence - a.microblock_sequence || b.tx_index - a.tx_index || a.status.localeCompare(b.status));
  const out = new Map<string, DeployStatus>();
  for (const d of placed) if (!out.has(d.contract_id)) out.set(d.contract_id, { contract_id: d.contract_id, tx_id: d.tx_id, status: d.status, block_height: d.block_height });
  const rest = ids.filter((id) => !out.has(id));
  if (rest.length) {
    const pending = await rows<{ contract_id: string; tx_id: string }>(
      store,
      `SELECT contract_id, tx_id FROM mempool_txs
       WHERE tx_id IN (SELECT tx_id FROM mempool_pending FINAL WHERE hasAny(principals, {ids:Array(String)})) AND contract_id IN {ids:Array(String)} AND type_id = 'smart_contract'
       ORDER BY nonce LIMIT 1 BY contract_id`,
      { ids: rest },
    );
    for (const p of pending) out.set(p.contract_id, { contract_id: p.contract_id, tx_id: p.tx_id, status: 'pending' });
  }
  return ids.filter((id) => out.has(id)).map((id) => out.get(id)!);
}
