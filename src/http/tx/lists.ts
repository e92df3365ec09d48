// Lists of canonical transactions: the chain-wide list (with the reference's filters and sort
// orders), a block's transactions, and the txs of unconfirmed microblocks on the tip.
//
// Canonical status in lists: a txs row of an anchor block is canonical when its block is. Orphaned
// blocks are few, so they are read as a small set (`nonCanonicalBlocks`) and excluded, instead of
// joining every row against the overlay. Chain-wide pages read the txs table, which is sorted in
// chain order (sql/0001), in (reverse) height order.
import type { Store } from '../../storage/client.ts';
import { rows, firstRow } from '../reads/query.ts';
import { keyOf, parseTxRow, placeTxRows, TIP_SQL, TX_COLUMNS, type PlacedTx, type TxKey } from './queries.ts';

export interface Tip {
  block_height: number;
  index_block_hash: string;
}

export async function getTip(store: Store): Promise<Tip | undefined> {
  const r = await firstRow<{ block_height: number; index_block_hash: string }>(store, TIP_SQL);
  return r ? { block_height: Number(r.block_height), index_block_hash: r.index_block_hash } : undefined;
}

/**
 * Blocks not canonical now (orphaned forks, the boot block). Read in two narrow steps: blocks that
 * were ever written non-canonical (one UInt8 column scanned), then their latest state by key.
 */
export async function nonCanonicalBlocks(store: Store): Promise<string[]> {
  const ever = await rows<{ block_height: number; index_block_hash: string }>(
    store,
    `SELECT DISTINCT block_height, index_block_hash FROM block_canonical WHERE canonical = 0`,
  );
  if (ever.length === 0) return [];
  const now = await rows<{ index_block_hash: string }>(
    store,
    `SELECT index_block_hash FROM block_canonical FINAL
     WHERE block_height IN {hs:Array(UInt32)} AND index_block_hash IN {ids:Array(String)} AND canonical = 0`,
    { hs: [...new Set(ever.map((e) => Number(e.block_height)))], ids: ever.map((e) => e.index_block_hash) },
  );
  return now.map((r) => r.index_block_hash);
}

/** Txs of the tip's live (canonical, unconfirmed) microblocks, newest first. */
export async function unanchoredTxs(store: Store, tip: Tip | undefined): Promise<PlacedTx[]> {
  if (!tip) return [];
  const mbs = await rows<{ microblock_hash: string }>(
    store,
    `SELECT microblock_hash FROM microblock_canonical FINAL WHERE parent_index_block_hash = {tip:String} AND canonical = 1 AND index_block_hash = ''`,
    { tip: tip.index_block_hash },
  );
  if (mbs.length === 0) return [];
  const list = await rows(
    store,
    `SELECT ${TX_COLUMNS} FROM txs
     WHERE tx_id IN (SELECT arrayJoin(tx_ids) FROM microblocks WHERE microblock_hash IN {mbs:Array(String)})
       AND index_block_hash = '' AND microblock_hash IN {mbs:Array(String)}
     LIMIT 1 BY tx_id, index_block_hash, microblock_hash`,
    { mbs: mbs.map((m) => m.microblock_hash) },
  );
  const placed = (await placeTxRows(store, list.map(parseTxRow))).filter((p) => p.canonical && p.microblock_canonical);
  return placed.sort((a, b) => b.microblock_sequence - a.microblock_sequence || b.tx_index - a.tx_index);
}

export type SortBy = 'block_height' | 'burn_block_time' | 'fee';

export interface TxListFilter {
  types?: string[];
  fromAddress?: string;
  toAddress?: string;
  startTime?: number;
  endTime?: number;
  contractId?: string;
  functionName?: string;
  nonce?: number;
}

/** A txs row's list fields. */
interface ListRow extends TxKey {
  block_height: number;
  microblock_sequence: number;
  tx_index: number;
  burn_block_time: number;
  fee_rate: bigint;
}

/**
 * Ties of (block_height, microblock_sequence, tx_index) only occur in block 1 of a chain with a
 * boot block, between block 1's own txs and the relabelled boot receipts. The reference orders them
 * by row placement; we put block 1's own tx first (what its answers mostly show), then by tx_id.
 */
function compareRows(sortBy: SortBy, desc: boolean, boot: Set<string>) {
  const sign = desc ? -1 : 1;
  return (a: ListRow, b: ListRow): number => {
    const first = sortBy === 'fee' ? (a.fee_rate < b.fee_rate ? -1 : a.fee_rate > b.fee_rate ? 1 : 0) : sortBy === 'burn_block_time' ? a.burn_block_time - b.burn_block_time : 0;
    return (
      sign * (first || a.block_height - b.block_height || a.microblock_sequence - b.microblock_sequence || a.tx_index - b.tx_index) ||
      Number(boot.has(a.tx_id)) - Number(boot.has(b.tx_id)) ||
      (a.tx_id < b.tx_id ? -1 : a.tx_id > b.tx_id ? 1 : 0)
    );
  };
}

function orderSql(sortBy: SortBy, desc: boolean): string {
  const d = desc ? 'DESC' : 'ASC';
  const lead = sortBy === 'fee' ? `fee_rate ${d}, ` : sortBy === 'burn_block_time' ? `burn_block_time ${d}, ` : '';
  return `ORDER BY ${lead}block_height ${d}, microblock_sequence ${d}, tx_index ${d}, has({boot:Array(String)}, tx_id), tx_id`;
}

let bootIdsCache: string[] | undefined;

/** Tx ids of the boot block (height 0), which block 1 also shows; cached once known. */
export async function bootTxIds(store: Store): Promise<string[]> {
  if (bootIdsCache) return bootIdsCache;
  const r = await rows<{ tx_ids: string[] }>(
    store,
    `SELECT tx_ids FROM blocks WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical WHERE block_height = 0) LIMIT 1 BY index_block_hash`,
  );
  const ids = r.flatMap((b) => b.tx_ids);
  if (ids.length) bootIdsCache = ids;
  return ids;
}

/** SQL conditions of a filter (on txs columns) and their parameters. */
function filterSql(f: TxListFilter): { where: string[]; params: Record<string, unknown> } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (f.types?.length) {
    where.push('type_id IN {types:Array(String)}');
    params.types = f.types;
  }
  if (f.fromAddress) {
    where.push('sender_address = {from:String}');
    params.from = f.fromAddress;
  }
  if (f.toAddress) where.push(`type_id = 'token_transfer'`);
  if (f.startTime) {
    where.push('burn_block_time >= {start:UInt32}');
    params.start = f.startTime;
  }
  if (f.endTime) {
    where.push('burn_block_time <= {end:UInt32}');
    params.end = f.endTime;
  }
  if (f.contractId) {
    where.push(`type_id = 'contract_call' AND contract_id = {contract:String}`);
    params.contract = f.contractId;
  }
  if (f.functionName) {
    where.push(`type_id = 'contract_call' AND function_name = {fn:String}`);
    params.fn = f.functionName;
  }
  if (f.nonce) {
    where.push('nonce = {nonce:UInt64}');
    params.nonce = f.nonce;
  }
  return { where, params };
}

/** In-memory version of filterSql (for unconfirmed microblock rows and recipient checks). */
function matches(p: PlacedTx, f: TxListFilter, recipient?: string): boolean {
  if (f.types?.length && !f.types.includes(p.type_id)) return false;
  if (f.fromAddress && p.sender_address !== f.fromAddress) return false;
  if (f.toAddress && (p.type_id !== 'token_transfer' || recipient !== f.toAddress)) return false;
  const burnTime = p.unanchored ? -1 : p.burn_block_time;
  if (f.startTime && !(burnTime >= f.startTime)) return false;
  if (f.endTime && !(burnTime <= f.endTime)) return false;
  if (f.contractId && (p.type_id !== 'contract_call' || p.contract_id !== f.contractId)) return false;
  if (f.functionName && (p.type_id !== 'contract_call' || p.function_name !== f.functionName)) return false;
  if (f.nonce && p.nonce !== f.nonce) return false;
  return true;
}

/** The principal whose address-history index narrows a filtered list, if any. */
const narrowingPrincipal = (f: TxListFilter): string | undefined => f.fromAddress ?? f.toAddress ?? f.contractId;

export interface TxListArgs {
  filter: TxListFilter;
  sortBy: SortBy;
  desc: boolean;
  limit: number;
  offset: number;
  includeUnanchored: boolean;
  /** Token-transfer recipient of a raw tx (decoded by the caller's decoder). */
  recipientOf: (rawTx: string, txId: string) => string | undefined;
}

/** A page of the chain-wide canonical tx list and the total, as placements to render. */
export async function txListPage(store: Store, args: TxListArgs): Promise<{ total: number; keys: TxKey[] }> {
  const tip = await getTip(store);
  if (!tip) return { total: 0, keys: [] };
  const [nc, live, boot] = await Promise.all([nonCanonicalBlocks(store), args.includeUnanchored ? unanchoredTxs(store, tip) : Promise.resolve([]), bootTxIds(store)]);
  const { filter } = args;
  const recipients = new Map<string, string | undefined>();
  if (filter.toAddress) for (const p of live) recipients.set(p.tx_id, args.recipientOf(p.raw_tx, p.tx_id));
  const liveRows = live.filter((p) => matches(p, filter, recipients.get(p.tx_id)));

  const { where, params } = filterSql(filter);
  const principal = narrowingPrincipal(filter);
  const unfiltered = where.length === 0 && !principal;
  where.push(`index_block_hash != ''`, 'block_height <= {tip:UInt32}', 'index_block_hash NOT IN {nc:Array(String)}');
  Object.assign(params, { tip: tip.block_height, nc });
  if (principal) {
    where.push('tx_id IN (SELECT tx_id FROM principal_txs WHERE principal = {principal:String})');
    params.principal = principal;
  }
  const cols = `tx_id, index_block_hash, microblock_hash, block_height, microblock_sequence, tx_index, burn_block_time, toString(fee_rate) AS fee_str${filter.toAddress ? ', raw_tx' : ''}`;
  const parse = (r: Record<string, unknown>): ListRow => ({
    tx_id: r.tx_id as string,
    index_block_hash: r.index_block_hash as string,
    microblock_hash: r.microblock_hash as string,
    block_height: Number(r.block_height),
    microblock_sequence: Number(r.microblock_sequence),
    tx_index: Number(r.tx_index),
    burn_block_time: Number(r.burn_block_time),
    fee_rate: BigInt(r.fee_str as string),
  });
  const cmp = compareRows(args.sortBy, args.desc, new Set(boot));
  const liveList: ListRow[] = liveRows.map((p) => ({ ...p, burn_block_time: -1, fee_rate: BigInt(p.fee_rate) }));

  let total: number;
  let page: ListRow[];
  if (filter.toAddress) {
    // The recipient is inside the tx bytes: candidates (the recipient's token transfers) are checked here.
    const cand = await rows<Record<string, unknown>>(store, `SELECT ${cols} FROM txs WHERE ${where.join(' AND ')} LIMIT 1 BY tx_id, index_block_hash, microblock_hash`, params);
    const kept = cand.filter((r) => args.recipientOf(r.raw_tx as string, r.tx_id as string) === filter.toAddress).map(parse);
    const all = [...kept, ...liveList].sort(cmp);
    total = all.length;
    page = all.slice(args.offset, args.offset + args.limit);
  } else {
    const want = liveList.length ? args.offset + args.limit : args.limit;
    const [count, list] = await Promise.all([
      listCount(store, where, params, unfiltered, tip.block_height, nc),
      rows<Record<string, unknown>>(
        store,
        `SELECT ${cols} FROM txs WHERE ${where.join(' AND ')} ${orderSql(args.sortBy, args.desc)} LIMIT {lim:UInt32} OFFSET {off:UInt32}`,
        { ...params, boot, lim: want, off: liveList.length ? 0 : args.offset },
      ),
    ]);
    // Rows stored twice (before a merge) would repeat: keep the first of each placement.
    const anchored = [...new Map(list.map(parse).map((r) => [keyOf(r), r])).values()];
    total = count + liveList.length;
    page = liveList.length ? [...anchored, ...liveList].sort(cmp).slice(args.offset, args.offset + args.limit) : anchored;
  }
  return { total, keys: page };
}

/** Number of canonical anchored txs matching the filter. */
async function listCount(store: Store, where: string[], params: Record<string, unknown>, unfiltered: boolean, tipHeight: number, nc: string[]): Promise<number> {
  if (!unfiltered) {
    const r = await firstRow<{ n: string }>(store, `SELECT count() AS n FROM (SELECT DISTINCT tx_id, index_block_hash, microblock_hash FROM txs WHERE ${where.join(' AND ')})`, params);
    return Number(r?.n ?? 0);
  }
  // Unfiltered: all rows (a count from part metadata) less those above the tip (a short range of
  // the projection), unconfirmed microblock rows (stored at height 0) and the rows of non-canonical
  // blocks (their blocks' tx counts). Block 1 may also show the boot block's receipts: the
  // reference's counter leaves those out.
  const [all, above, loose, orphaned, relabelled] = await Promise.all([
    firstRow<{ n: string }>(store, `SELECT count() AS n FROM txs`),
    firstRow<{ n: string }>(store, `SELECT count() AS n FROM txs WHERE block_height > {tip:UInt32}`, { tip: tipHeight }),
    firstRow<{ n: string }>(store, `SELECT count() AS n FROM txs WHERE block_height = 0 AND index_block_hash = ''`),
    nc.length
      ? firstRow<{ n: string }>(store, `SELECT sum(length(tx_ids)) AS n FROM (SELECT tx_ids FROM blocks WHERE index_block_hash IN {nc:Array(String)} LIMIT 1 BY index_block_hash)`, { nc })
      : Promise.resolve({ n: '0' }),
    firstRow<{ n: string }>(
      store,
      `SELECT sum(length(tx_ids) - tx_count) AS n FROM (SELECT tx_ids, tx_count FROM blocks
       WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE block_height = 1 AND canonical = 1) LIMIT 1 BY index_block_hash)`,
    ),
  ]);
  return Number(all?.n ?? 0) - Number(above?.n ?? 0) - Number(loose?.n ?? 0) - Number(orphaned?.n ?? 0) - Number(relabelled?.n ?? 0);
}

/** Canonical txs of one canonical block, in the given order of (microblock_sequence, tx_index). */
export async function blockTxPage(store: Store, indexBlockHash: string, order: 'asc' | 'desc', limit: number, offset: number): Promise<{ total: number; keys: TxKey[] }> {
  const [order0, all] = await Promise.all([
    rows<{ tx_ids: string[] }>(store, `SELECT tx_ids FROM blocks WHERE index_block_hash = {h:String} LIMIT 1`, { h: indexBlockHash }),
    rows<Record<string, unknown>>(
    store,
    `SELECT tx_id, index_block_hash, microblock_hash, microblock_sequence, tx_index FROM txs
     WHERE tx_id IN (SELECT arrayJoin(tx_ids) FROM blocks WHERE index_block_hash = {h:String}) AND index_block_hash = {h:String}
     LIMIT 1 BY tx_id, index_block_hash, microblock_hash`,
    { h: indexBlockHash },
    ),
  ]);
  // Ties of equal tx_index (boot receipts shown in block 1): the block's own tx first, in either
  // direction (its tx_ids list has own txs before relabelled ones).
  const position = new Map((order0[0]?.tx_ids ?? []).map((id, i) => [id, i]));
  const placed = all.map((r) => ({ ...(r as unknown as TxKey), microblock_sequence: Number(r.microblock_sequence), tx_index: Number(r.tx_index) }));
  // Only txs of microblocks this block accepted count (normally all of them).
  const mbHashes = [...new Set(placed.filter((p) => p.microblock_hash).map((p) => p.microblock_hash))];
  const accepted = new Set(
    mbHashes.length
      ? (
          await rows<{ microblock_hash: string }>(
            store,
            `SELECT microblock_hash FROM microblock_canonical FINAL WHERE microblock_hash IN {m:Array(String)} AND canonical = 1 AND index_block_hash = {h:String}`,
            { m: mbHashes, h: indexBlockHash },
          )
        ).map((m) => m.microblock_hash)
      : [],
  );
  const sign = order === 'desc' ? -1 : 1;
  const list = placed
    .filter((p) => !p.microblock_hash || accepted.has(p.microblock_hash))
    .sort((a, b) => sign * (a.microblock_sequence - b.microblock_sequence || a.tx_index - b.tx_index) || (position.get(a.tx_id) ?? 0) - (position.get(b.tx_id) ?? 0));
  return { total: list.length, keys: list.slice(offset, offset + limit) };
}
