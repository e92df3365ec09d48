// The v3 family's reads: offset lists and lookups of the v1/v2 twins (see twin.ts), in v3 order,
// and the block index hashes the v1 tx objects do not carry.
import type { ApiContext } from '../context.ts';
import { txRoutes } from '../tx/routes.ts';
import { txV2Routes } from '../tx/v2-routes.ts';
import { blockV2Routes, resolveStoredBlock } from '../blocks/v2-routes.ts';
import { canonicalIndexHashAt } from '../blocks/served.ts';
import { addressV2Routes } from '../address/v2-routes.ts';
import { httpError } from '../errors.ts';
import { firstRow, rows } from '../reads/query.ts';
import { askTwin, twinRoute } from './twin.ts';
import { firstOffsetWhere, type OffsetList, type TxKey } from './cursor.ts';
import type { BlockIndexHashes, SummaryTx, V1Tx } from './tx-shape.ts';
import type { StoredBlock } from '../blocks/served.ts';
import { blockTxPids } from '../blocks/served.ts';
import { storedAddressTxs, storedBlockTxs } from './served.ts';
import { servingReady } from '../reads/source.ts';

export const V1_TX_LIST = twinRoute(txRoutes, '/extended/v1/tx');
export const V1_TX = twinRoute(txRoutes, '/extended/v1/tx/:tx_id');
export const V1_TX_EVENTS = twinRoute(txRoutes, '/extended/v1/tx/events');
const V2_BLOCK_TXS = twinRoute(txV2Routes, '/extended/v2/blocks/:height_or_hash/transactions');
const V2_BLOCK = twinRoute(blockV2Routes, '/extended/v2/blocks/:height_or_hash');
const V2_ADDRESS_TXS = twinRoute(addressV2Routes, '/extended/v2/addresses/:address/transactions');

interface OffsetAnswer<T> {
  total: number;
  results: T[];
}

/** The twin's answer body, or its error as ours: a twin's 4xx is the request's fault. */
export function bodyOf<T>(a: { status: number; body: unknown }): T {
  if (a.status === 200) return a.body as T;
  const b = a.body as { message?: string; error?: string };
  throw httpError(a.status, b.message ?? b.error ?? 'error');
}

/**
 * An offset list read from a twin page by page (`max` items a request at most). The length is the
 * twin's total, read once per request.
 */
function twinList<T>(read: (offset: number, limit: number) => Promise<OffsetAnswer<T>>, max: number): OffsetList<T> & { total(): Promise<number> } {
  let total: Promise<number> | undefined;
  const slice = async (offset: number, limit: number): Promise<T[]> => {
    const out: T[] = [];
    while (out.length < limit) {
      const n = Math.min(max, limit - out.length);
      const page = await read(offset + out.length, n);
      total ??= Promise.resolve(page.total);
      out.push(...page.results);
      if (page.results.length < n) break;
    }
    return out;
  };
  const length = () => (total ??= read(0, 1).then((p) => p.total));
  return { length, total: length, slice };
}

/** Every mined tx, newest first, the unconfirmed microblock txs on top (the v1 list with
 *  `unanchored`). */
export function chainTxList(ctx: ApiContext) {
  return twinList<V1Tx>(async (offset, limit) => bodyOf(await askTwin(V1_TX_LIST, ctx, {}, { offset, limit, unanchored: true })), 50);
}

/** How many txs the canonical chain holds (the reference's counter: streamed microblock txs are not
 *  counted until a block accepts them). */
export async function chainTxCount(ctx: ApiContext): Promise<number> {
  return bodyOf<{ total: number }>(await askTwin(V1_TX_LIST, ctx, {}, { limit: 1 })).total;
}

/**
 * A canonical block's txs, newest first: from the serving store where the block is there, else the
 * v2 list (oldest first) read from its end. Its length is the block's tx count, plus the boot
 * block's receipts block 1 may show beyond it.
 */
export function blockTxList(ctx: ApiContext, block: V2Block): OffsetList<SummaryTx> {
  const oldestFirst = async (offset: number, limit: number): Promise<V1Tx[]> => {
    const a = await askTwin<{ results: V1Tx[] }>(V2_BLOCK_TXS, ctx, { height_or_hash: block.index_block_hash }, { offset, limit });
    // The v2 list answers a page past its end 404.
    return a.status === 404 ? [] : bodyOf<{ results: V1Tx[] }>(a).results;
  };
  const stored = block.stored && servingReady(ctx.serving) ? storedBlockTxs(ctx.serving, blockTxPids(ctx.serving, block.stored)) : undefined;
  let length: Promise<number> | undefined;
  const lengthOf = () =>
    (length ??= (async () => {
      if (stored) return stored.length();
      let n = block.tx_count;
      for (let more = await oldestFirst(n, 50); more.length; more = await oldestFirst(n, 50)) n += more.length;
      return n;
    })());
  const slice = async (offset: number, limit: number): Promise<SummaryTx[]> => {
    const served = stored?.slice(offset, limit);
    if (served) return served;
    const end = (await lengthOf()) - offset;
    const out: V1Tx[] = [];
    for (let from = Math.max(0, end - limit); from < end; from += 50) out.push(...(await oldestFirst(from, Math.min(50, end - from))));
    return out.reverse();
  };
  return { length: lengthOf, slice };
}

/** A v2 address list entry: the tx and the principal's STX and event counts in it. */
export interface AddressTx {
  tx: SummaryTx;
  /** Its place in the v3 order, when known without the tx (entries read from the store). */
  key?: TxKey;
  stx_sent: string;
  stx_received: string;
  events: { stx: Record<string, number>; ft: Record<string, number>; nft: Record<string, number> };
}

/** A principal's txs at height 1 or below, which never change once block 1 is stored: how many
 *  the v2 list holds, and those left once the boot receipts are out (null: none there). */
type BootTail = { raw: number; kept: AddressTx[] } | null;

/** Per store, for a bounded number of principals (see principalTxList). */
const bootTails = new WeakMap<ApiContext['store'], Map<string, BootTail>>();
const TAILS_KEPT = 50_000;

/**
 * The txs a principal took part in, newest first: the v2 address list without the boot block's
 * receipts shown in block 1 (the reference's v3 list leaves those out). They can only sit at the
 * list's end (height 1), so the list is the v2 list up to its height-1 tail, then that tail
 * filtered.
 */
export function principalTxList(ctx: ApiContext, principal: string): OffsetList<AddressTx> & { total(): Promise<number> } {
  const twin = twinList<AddressTx>(async (offset, limit) => bodyOf(await askTwin(V2_ADDRESS_TXS, ctx, { address: principal }, { offset, limit, exclude_function_args: true })), 50);
  const stored = servingReady(ctx.serving) ? storedAddressTxs(ctx.serving, principal) : undefined;
  // The stored list when the store can answer; a slice whose document is missing asks the twin.
  const v2: typeof twin = stored
    ? { length: async () => stored.length(), total: async () => stored.length(), slice: async (offset, limit) => stored.slice(offset, limit) ?? twin.slice(offset, limit) }
    : twin;
  let tail: Promise<BootTail> | undefined;
  const tailOf = () =>
    (tail ??= (async (): Promise<BootTail> => {
      const boot = await bootReceipts(ctx);
      if (boot.size === 0) return null;
      const kept = bootTails.get(ctx.store) ?? new Map<string, BootTail>();
      bootTails.set(ctx.store, kept);
      const known = kept.get(principal);
      if (known !== undefined) return known;
      const length = await v2.length();
      const [last] = await v2.slice(Math.max(0, length - 1), 1);
      if (!last) return null;
      let found: BootTail = null;
      if (last.tx.block_height <= 1) {
        const at = await firstOffsetWhere(v2, (e) => e.tx.block_height <= 1);
        const items = await v2.slice(at, length - at);
        found = { raw: items.length, kept: items.filter((e) => !boot.has(e.tx.tx_id)) };
      }
      if (kept.size >= TAILS_KEPT) kept.delete(kept.keys().next().value!);
      kept.set(principal, found);
      return found;
    })());
  const length = async () => {
    const t = await tailOf();
    return t ? (await v2.length()) - t.raw + t.kept.length : v2.length();
  };
  const slice = async (offset: number, limit: number) => {
    const t = await tailOf();
    if (!t) return v2.slice(offset, limit);
    const at = (await v2.length()) - t.raw;
    const head = offset < at ? await v2.slice(offset, Math.min(limit, at - offset)) : [];
    return [...head, ...t.kept.slice(Math.max(0, offset - at), Math.max(0, offset + limit - at))];
  };
  return { length, total: length, slice };
}

/** A canonical block as /extended/v2/blocks shows it. */
export interface V2Block {
  height: number;
  hash: string;
  index_block_hash: string;
  parent_block_hash: string;
  parent_index_block_hash: string;
  tx_count: number;
  /** The serving store's document, when the block was read from there. */
  stored?: StoredBlock;
}

/** The canonical block of a height or hash, or undefined. */
export async function canonicalBlock(ctx: ApiContext, heightOrHash: string): Promise<V2Block | undefined> {
  // The v2 lookup's own serving-store read, without rendering and parsing its answer (a page of
  // txs asks for a block per height).
  const stored = servingReady(ctx.serving) ? resolveStoredBlock(ctx.serving, heightOrHash) : undefined;
  if (stored !== undefined) {
    if (!stored?.canonical) return undefined;
    const { block_height: height, block_hash: hash, index_block_hash, parent_block_hash, parent_index_block_hash, tx_count } = stored;
    return { height, hash, index_block_hash, parent_block_hash, parent_index_block_hash, tx_count, stored };
  }
  const a = await askTwin<V2Block>(V2_BLOCK, ctx, { height_or_hash: heightOrHash });
  return a.status === 200 ? a.body : undefined;
}

const NO_BLOCK = '0x';

/** Block 1 may also show the boot block's receipts: txs placed in block 0 too (rows of
 *  unconfirmed microblocks are stored at height 0 as well, without an index block hash). */
async function bootReceipts(ctx: ApiContext): Promise<Set<string>> {
  const kept = bootKept.get(ctx.store);
  if (kept) return kept;
  const list = await rows<{ tx_id: string }>(ctx.store, `SELECT DISTINCT tx_id FROM txs WHERE block_height = 0 AND index_block_hash != ''`);
  const set = new Set(list.map((r) => r.tx_id));
  // The boot block is the chain's first: once block 1 is stored (children are stored after their
  // parents), its receipts never change.
  if (set.size > 0 || (await canonicalBlock(ctx, '1')) !== undefined) bootKept.set(ctx.store, set);
  return set;
}
const bootKept = new WeakMap<ApiContext['store'], Set<string>>();

/** The boot block's time and parent, which its receipts keep. */
async function bootBlock(ctx: ApiContext): Promise<{ time: number; parent: string }> {
  const r = await firstRow<{ block_time: string; parent_index_block_hash: string }>(ctx.store, `SELECT block_time, parent_index_block_hash FROM blocks WHERE block_height = 0 LIMIT 1`);
  return { time: Number(r?.block_time ?? 0), parent: r?.parent_index_block_hash ?? NO_BLOCK };
}

/** The index hashes of the txs' blocks and parents (one block read per height). `withParents`
 *  false: the parents' index hashes are not needed (summaries show only the tx's own block), and a
 *  tx read with its block's index hash needs no read at all. */
export async function indexHashesOf(ctx: ApiContext, txs: readonly SummaryTx[], withParents = true): Promise<Map<string, BlockIndexHashes>> {
  const blocks = new Map<number, Promise<V2Block | undefined>>();
  const blockAt = (h: number) => {
    let b = blocks.get(h);
    if (!b) blocks.set(h, (b = h >= 0 ? canonicalBlock(ctx, String(h)) : Promise.resolve(undefined)));
    return b;
  };
  const indexes = new Map<number, string | undefined>();
  const indexAt = (h: number) => {
    if (!indexes.has(h)) indexes.set(h, servingReady(ctx.serving) ? canonicalIndexHashAt(ctx.serving, h) : undefined);
    return indexes.get(h);
  };
  const out = new Map<string, BlockIndexHashes>();
  let boot: Promise<{ receipts: Set<string>; block: { time: number; parent: string } }> | undefined;
  const bootOf = () => (boot ??= Promise.all([bootReceipts(ctx), bootBlock(ctx)]).then(([receipts, block]) => ({ receipts, block })));
  await Promise.all(
    txs.map(async (tx) => {
      if (tx.is_unanchored || tx.block_hash === NO_BLOCK) {
        // A streamed microblock's tx: no block yet; its parent is the tip it was streamed on.
        const parent = await blockAt(tx.block_height - 1);
        out.set(tx.tx_id, { index_hash: NO_BLOCK, parent: { hash: parent?.hash ?? tx.parent_block_hash, index_hash: parent?.index_block_hash ?? NO_BLOCK }, time: tx.block_time });
        return;
      }
      // The canonical chain has a block at every height, so the parent is the canonical block below:
      // two index reads in the serving store (block 1 may show boot receipts: read in full below).
      const index = tx.block_height > 1 ? (tx.index_block_hash ?? indexAt(tx.block_height)) : undefined;
      if (index && !withParents) {
        out.set(tx.tx_id, { index_hash: index, parent: { hash: tx.parent_block_hash, index_hash: NO_BLOCK }, time: tx.block_time });
        return;
      }
      const parentIndex = index ? indexAt(tx.block_height - 1) : undefined;
      if (index && parentIndex) {
        out.set(tx.tx_id, { index_hash: index, parent: { hash: tx.parent_block_hash, index_hash: parentIndex }, time: tx.block_time });
        return;
      }
      const block = await blockAt(tx.block_height);
      const index_hash = block?.index_block_hash ?? NO_BLOCK;
      const b = tx.block_height === 1 && block ? await bootOf() : undefined;
      if (b?.receipts.has(tx.tx_id)) {
        out.set(tx.tx_id, { index_hash, parent: { hash: tx.parent_block_hash, index_hash: b.block.parent }, time: b.block.time });
        return;
      }
      out.set(tx.tx_id, { index_hash, parent: { hash: tx.parent_block_hash, index_hash: block?.parent_index_block_hash ?? NO_BLOCK }, time: tx.block_time });
    }),
  );
  return out;
}
