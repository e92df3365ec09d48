// The v3 family's reads: offset lists and lookups of the v1/v2 twins (see twin.ts), in v3 order,
// and the block index hashes the v1 tx objects do not carry.
import type { ApiContext } from '../context.ts';
import { txRoutes } from '../tx/routes.ts';
import { blockV2Routes } from '../blocks/v2-routes.ts';
import { addressV2Routes } from '../address/v2-routes.ts';
import { httpError } from '../errors.ts';
import { askTwin, twinRoute } from './twin.ts';
import type { OffsetList } from './cursor.ts';
import type { BlockIndexHashes, V1Tx } from './tx-shape.ts';

export const V1_TX_LIST = twinRoute(txRoutes, '/extended/v1/tx');
export const V1_TX = twinRoute(txRoutes, '/extended/v1/tx/:tx_id');
export const V1_TX_EVENTS = twinRoute(txRoutes, '/extended/v1/tx/events');
const V1_BLOCK_TXS = twinRoute(txRoutes, '/extended/v1/tx/block/:block_hash');
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

/** A canonical block's txs, newest first. */
export function blockTxList(ctx: ApiContext, blockHash: string) {
  return twinList<V1Tx>(async (offset, limit) => bodyOf(await askTwin(V1_BLOCK_TXS, ctx, { block_hash: blockHash }, { offset, limit })), 200);
}

/** A v2 address list entry: the tx and the principal's STX and event counts in it. */
export interface AddressTx {
  tx: V1Tx;
  stx_sent: string;
  stx_received: string;
  events: { stx: Record<string, number>; ft: Record<string, number>; nft: Record<string, number> };
}

/** The txs a principal took part in, newest first (the v2 address list). */
export function principalTxList(ctx: ApiContext, principal: string) {
  return twinList<AddressTx>(async (offset, limit) => bodyOf(await askTwin(V2_ADDRESS_TXS, ctx, { address: principal }, { offset, limit, exclude_function_args: true })), 50);
}

/** A canonical block as /extended/v2/blocks shows it. */
export interface V2Block {
  height: number;
  hash: string;
  index_block_hash: string;
  parent_block_hash: string;
  parent_index_block_hash: string;
  tx_count: number;
}

/** The canonical block of a height or hash, or undefined. */
export async function canonicalBlock(ctx: ApiContext, heightOrHash: string): Promise<V2Block | undefined> {
  const a = await askTwin<V2Block>(V2_BLOCK, ctx, { height_or_hash: heightOrHash });
  return a.status === 200 ? a.body : undefined;
}

const NO_BLOCK = '0x';

/** The index hashes of the txs' blocks and parents (one block read per height). */
export async function indexHashesOf(ctx: ApiContext, txs: readonly V1Tx[]): Promise<Map<string, BlockIndexHashes>> {
  const blocks = new Map<number, Promise<V2Block | undefined>>();
  const blockAt = (h: number) => {
    let b = blocks.get(h);
    if (!b) blocks.set(h, (b = h >= 0 ? canonicalBlock(ctx, String(h)) : Promise.resolve(undefined)));
    return b;
  };
  const out = new Map<string, BlockIndexHashes>();
  await Promise.all(
    txs.map(async (tx) => {
      if (tx.is_unanchored || tx.block_hash === NO_BLOCK) {
        // A streamed microblock's tx: no block yet; its parent is the tip it was streamed on.
        const parent = await blockAt(tx.block_height - 1);
        out.set(tx.tx_id, { index_hash: NO_BLOCK, parent: { hash: parent?.hash ?? tx.parent_block_hash, index_hash: parent?.index_block_hash ?? NO_BLOCK } });
        return;
      }
      const block = await blockAt(tx.block_height);
      out.set(tx.tx_id, { index_hash: block?.index_block_hash ?? NO_BLOCK, parent: { hash: tx.parent_block_hash, index_hash: block?.parent_index_block_hash ?? NO_BLOCK } });
    }),
  );
  return out;
}
