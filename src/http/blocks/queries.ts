// Block reads: by hash, height, burn block; canonical lists; the microblocks around a block.
import type { Store } from '../../storage/client.ts';
import { rows, firstRow } from '../reads/query.ts';
import type { BlockRow, MicroblockInfo } from '../../render/rows.ts';
import { BLOCK_COLUMNS, CANONICAL_BLOCKS, MICROBLOCK_STATE } from '../reads/canonical.ts';


const NUMERIC = ['block_height', 'parent_microblock_sequence', 'burn_block_height', 'burn_block_time', 'block_time', 'tenure_height', 'tx_count',
  'execution_cost_read_count', 'execution_cost_read_length', 'execution_cost_runtime', 'execution_cost_write_count', 'execution_cost_write_length'] as const;

function parse(r: Record<string, unknown>): BlockRow {
  const out = { ...r } as Record<string, unknown>;
  for (const k of NUMERIC) out[k] = Number(r[k]);
  out.canonical = Number(r.canonical) === 1;
  return out as unknown as BlockRow;
}

const SELECT_BLOCK = `SELECT ${BLOCK_COLUMNS} FROM blocks AS b`;

/** Fetches blocks and their canonical status (from the overlay) in two narrow reads. */
async function fetchBlocks(store: Store, where: string, params: Record<string, unknown>): Promise<BlockRow[]> {
  const list = await rows(store, `${SELECT_BLOCK} WHERE ${where} LIMIT 1 BY index_block_hash`, params);
  if (list.length === 0) return [];
  const canonical = await rows<{ index_block_hash: string }>(
    store,
    `SELECT index_block_hash FROM ${CANONICAL_BLOCKS} WHERE block_height IN {hs:Array(UInt32)} AND index_block_hash IN {ids:Array(String)}`,
    { hs: [...new Set(list.map((r) => Number(r.block_height)))], ids: list.map((r) => r.index_block_hash) },
  );
  const set = new Set(canonical.map((c) => c.index_block_hash));
  return list.map((r) => parse({ ...r, canonical: set.has(r.index_block_hash as string) ? 1 : 0 }));
}

/** Of blocks a lookup names, the one the reference answers: canonical first, then the tallest. */
const preferred = (list: BlockRow[]): BlockRow | undefined => list.sort((a, b) => Number(b.canonical) - Number(a.canonical) || b.block_height - a.block_height)[0];

export async function blockByHash(store: Store, column: 'block_hash' | 'index_block_hash', hash: string): Promise<BlockRow | undefined> {
  // A block hash can name several blocks (forks share none in practice, but be exact).
  return preferred(await fetchBlocks(store, `${column} = {h:String}`, { h: hash }));
}

/**
 * The block of a burn block, by its hash or height: any stored one, orphaned too (as the
 * reference's getBlockInternal, which also finds a testnet chain's genesis at burn height 0).
 */
export async function blockByBurnBlock(store: Store, burn: { hash: string } | { height: number }): Promise<BlockRow | undefined> {
  const list = 'hash' in burn ? await fetchBlocks(store, 'burn_block_hash = {h:String}', { h: burn.hash }) : await fetchBlocks(store, 'burn_block_height = {h:UInt32}', { h: burn.height });
  return preferred(list);
}

export async function blockByHeight(store: Store, height: number): Promise<BlockRow | undefined> {
  const canonical = await firstRow<{ index_block_hash: string }>(store, `SELECT index_block_hash FROM ${CANONICAL_BLOCKS} WHERE block_height = {h:UInt32} LIMIT 1`, { h: height });
  if (canonical) return blockByHash(store, 'index_block_hash', canonical.index_block_hash);
  // Like the reference: a height with no canonical block still finds a stored one (e.g. block 0).
  const any = await firstRow<{ index_block_hash: string }>(store, `SELECT index_block_hash FROM block_canonical FINAL WHERE block_height = {h:UInt32} ORDER BY version LIMIT 1`, { h: height });
  return any ? blockByHash(store, 'index_block_hash', any.index_block_hash) : undefined;
}

/**
 * Canonical blocks of one tenure, as the reference selects them: by the tenure height the node
 * reported. Epoch-2 payloads report none (the store keeps their height in its place, the value the
 * API shows); a Nakamoto block (signer_bitvec) or a payload of a node that also sends
 * consensus_hash (3.1.0.0.4 and later) did report one.
 */
const REPORTED_TENURE = `tenure_height = {t:Int64} AND (signer_bitvec IS NOT NULL OR consensus_hash != '')`;
export const TENURE_BLOCKS = `(SELECT c.* FROM ${CANONICAL_BLOCKS} AS c WHERE c.index_block_hash IN (SELECT index_block_hash FROM blocks WHERE ${REPORTED_TENURE}))`;

/** Blocks of a tenure, orphaned ones too (the reference's total). */
export async function tenureBlockCount(store: Store, tenure: number): Promise<number> {
  const r = await firstRow<{ n: string }>(store, `SELECT uniqExact(index_block_hash) AS n FROM blocks WHERE ${REPORTED_TENURE}`, { t: tenure });
  return Number(r?.n ?? 0);
}

export async function canonicalBlockCount(store: Store): Promise<number> {
  const r = await firstRow<{ n: string }>(store, `SELECT count() AS n FROM ${CANONICAL_BLOCKS}`);
  return Number(r?.n ?? 0);
}

/** Canonical blocks newest first, with optional upper height bound and a filter. */
export async function canonicalBlocks(store: Store, opts: { limit: number; offset?: number; maxHeight?: number; where?: string; params?: Record<string, unknown> }): Promise<BlockRow[]> {
  const page = await rows<{ index_block_hash: string }>(
    store,
    `SELECT index_block_hash FROM ${CANONICAL_BLOCKS} WHERE block_height <= {maxH:UInt32}
     ORDER BY block_height DESC LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { limit: opts.limit, offset: opts.offset ?? 0, maxH: opts.maxHeight ?? 4294967295 },
  );
  if (page.length === 0) return [];
  const list = await fetchBlocks(store, `index_block_hash IN {ids:Array(String)}${opts.where ? ` AND ${opts.where}` : ''}`, { ids: page.map((p) => p.index_block_hash), ...opts.params });
  return list.sort((a, b) => b.block_height - a.block_height);
}

export async function canonicalBlocksWhere(store: Store, where: string, params: Record<string, unknown>, limit: number, offset: number): Promise<{ total: number; results: BlockRow[] }> {
  const hashes = await rows<{ index_block_hash: string; block_height: string }>(
    store,
    `SELECT index_block_hash, block_height FROM blocks AS b WHERE ${where}
       AND index_block_hash IN (SELECT index_block_hash FROM ${CANONICAL_BLOCKS}) LIMIT 1 BY index_block_hash`,
    params,
  );
  const sorted = hashes.sort((a, b) => Number(b.block_height) - Number(a.block_height));
  const page = sorted.slice(offset, offset + limit).map((h) => h.index_block_hash);
  if (page.length === 0) return { total: sorted.length, results: [] };
  const list = await fetchBlocks(store, `index_block_hash IN {h:Array(String)}`, { h: page });
  return { total: sorted.length, results: list.sort((a, b) => b.block_height - a.block_height) };
}


/** Canonical microblocks whose anchor (parent_index_block_hash) is one of `anchors`. */
export async function canonicalMicroblocksOf(store: Store, anchors: string[]): Promise<MicroblockInfo[]> {
  if (anchors.length === 0) return [];
  const list = await rows<Record<string, string>>(
    store,
    `SELECT s.microblock_hash AS microblock_hash, s.microblock_sequence AS microblock_sequence, s.parent_index_block_hash AS parent_index_block_hash,
            s.index_block_hash AS index_block_hash, length(m.tx_ids) AS tx_count
     FROM ${MICROBLOCK_STATE} AS s INNER JOIN (SELECT microblock_hash, tx_ids FROM microblocks LIMIT 1 BY microblock_hash) AS m USING microblock_hash
     WHERE s.canonical = 1 AND s.parent_index_block_hash IN {a:Array(String)}`,
    { a: anchors },
  );
  return list.map((r) => ({ ...r, microblock_sequence: Number(r.microblock_sequence), tx_count: Number(r.tx_count) })) as MicroblockInfo[];
}

/** Blocks by index hash (known canonical), newest first. */
export async function canonicalBlocksByHash(store: Store, hashes: string[]): Promise<BlockRow[]> {
  const list = await fetchBlocks(store, 'index_block_hash IN {ids:Array(String)}', { ids: hashes });
  return list.sort((a, b) => b.block_height - a.block_height);
}

export type { BlockRow, MicroblockInfo } from '../../render/rows.ts';
