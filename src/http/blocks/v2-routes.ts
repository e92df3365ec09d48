// /extended/v2/blocks: cursor-paginated canonical blocks and single-block lookup.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { blockByHash, blockByHeight, canonicalBlockCount, canonicalBlocks, canonicalBlocksByHash, TENURE_BLOCKS, tenureBlockCount, type BlockRow } from './queries.ts';
import { formatBlockV2 } from '../../render/block.ts';
import { limitOffset } from '../params.ts';
import { rows } from '../reads/query.ts';
import { CANONICAL_BLOCKS } from '../reads/canonical.ts';
import type { Store } from '../../storage/client.ts';
import { NAKAMOTO_BLOCK, NAKAMOTO_BLOCK_CURSOR_LIST } from './schemas.ts';
import { blockByHash as storedBlockByHash, blockByIndexHash, blockV2, canonicalBlockAt, tipBlock, type StoredBlock } from './served.ts';
import { servingReady, type Serving } from '../reads/source.ts';

/**
 * `resolveBlock` from the serving store: undefined when it cannot tell (a height without a
 * canonical block, where the reference shows a non-canonical one), null when there is no such block.
 */
export function resolveStoredBlock(s: Serving, id: string): StoredBlock | null | undefined {
  if (id === 'latest') return tipBlock(s) ?? null;
  if (/^\d+$/.test(id)) return canonicalBlockAt(s, Number(id));
  const h = (id.startsWith('0x') ? id : `0x${id}`).toLowerCase();
  return storedBlockByHash(s, h) ?? blockByIndexHash(s, h) ?? null;
}

export const HEIGHT_OR_HASH = {
  anyOf: [{ const: 'latest' }, { type: 'string', pattern: '^(0x)?[a-fA-F0-9]{64}$' }, { type: 'integer', minimum: 0 }],
};

/** Resolves `latest`, a height, a block hash or an index block hash. */
export async function resolveBlock(store: Store, id: string): Promise<BlockRow | undefined> {
  if (id === 'latest') return (await canonicalBlocks(store, { limit: 1 }))[0];
  if (/^\d+$/.test(id)) return blockByHeight(store, Number(id));
  const h = (id.startsWith('0x') ? id : `0x${id}`).toLowerCase();
  return (await blockByHash(store, 'block_hash', h)) ?? (await blockByHash(store, 'index_block_hash', h));
}

/** The index block hash the query selects, if any (the prev/next page cursors). */
async function firstHash(store: Store, sql: string, params: Record<string, unknown>): Promise<string | undefined> {
  return (await rows<{ index_block_hash: string }>(store, sql, params))[0]?.index_block_hash;
}

interface CursorQuery {
  limit: number;
  offset: number;
  cursor?: string;
  /** Only the blocks of this tenure (0, as in the reference, is no filter). */
  tenure?: number;
}

/**
 * The reference's cursor pagination over canonical blocks (optionally of one tenure): the page
 * starts `offset` blocks below the cursor block (default: the chain tip — so, as in the reference,
 * a tenure other than the tip's lists nothing without a cursor); prev/next cursors are the blocks a
 * page below and above; the total is counted only for a page that lists something.
 */
async function cursorPage(store: Store, q: CursorQuery) {
  const { limit, offset } = q;
  const empty = { limit, offset, total: 0, next_cursor: null, prev_cursor: null, cursor: null, results: [] };
  const tenure = q.tenure || undefined;
  const scope = tenure === undefined ? CANONICAL_BLOCKS : TENURE_BLOCKS;
  const p = { t: tenure ?? 0 };
  const cursor = q.cursor ?? (await rows<{ index_block_hash: string }>(store, `SELECT index_block_hash FROM ${CANONICAL_BLOCKS} ORDER BY block_height DESC LIMIT 1`))[0]?.index_block_hash;
  if (!cursor) return empty;
  const c = await rows<{ block_height: string }>(store, `SELECT block_height FROM ${scope} WHERE index_block_hash = {c:String}`, { ...p, c: cursor });
  if (!c[0]) return empty;
  const start = await rows<{ block_height: string }>(store, `SELECT block_height FROM ${scope} WHERE block_height <= {s:UInt32} ORDER BY block_height DESC LIMIT 1 OFFSET {o:UInt32}`, { ...p, s: Number(c[0].block_height), o: offset });
  if (!start[0]) return empty;
  const page = await rows<{ index_block_hash: string }>(store, `SELECT index_block_hash FROM ${scope} WHERE block_height <= {s:UInt32} ORDER BY block_height DESC LIMIT {l:UInt32}`, { ...p, s: Number(start[0].block_height), l: limit });
  const blocks = page.length ? await canonicalBlocksByHash(store, page.map((r) => r.index_block_hash)) : [];
  if (blocks.length === 0) return empty;
  const first = blocks[0].block_height;
  const [prev, next, total] = await Promise.all([
    firstHash(store, `SELECT index_block_hash FROM ${scope} WHERE block_height < {h:UInt32} ORDER BY block_height DESC LIMIT 1 OFFSET {o:UInt32}`, { ...p, h: first, o: Math.max(0, limit - 1) }),
    firstHash(store, `SELECT index_block_hash FROM ${scope} WHERE block_height > {h:UInt32} ORDER BY block_height ASC LIMIT 1 OFFSET {o:UInt32}`, { ...p, h: first, o: Math.max(0, limit - 1) }),
    tenure === undefined ? canonicalBlockCount(store) : tenureBlockCount(store, tenure),
  ]);
  return { limit, offset, total, next_cursor: next ?? null, prev_cursor: prev ?? null, cursor: blocks[0].index_block_hash, results: blocks.map(formatBlockV2) };
}

type PageQuery = { limit: number; offset: number; cursor?: string };

export const blockV2Routes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v2/blocks',
    summary: 'Get blocks',
    tags: ['Blocks'],
    query: limitOffset(20, 30, { cursor: { type: 'string' } }),
    responses: { 200: NAKAMOTO_BLOCK_CURSOR_LIST },
    handler: async (req, ctx) => {
      const { limit, offset, cursor } = queryOf<PageQuery>(req);
      return cursorPage(ctx.store, { limit, offset, cursor });
    },
  },
  {
    method: 'get',
    path: '/extended/v2/block-tenures/:tenure_height/blocks',
    summary: 'Get blocks by tenure',
    tags: ['Blocks'],
    params: { type: 'object', properties: { tenure_height: { type: 'integer', minimum: 0 } }, required: ['tenure_height'] },
    query: limitOffset(20, 30, { cursor: { type: 'string' } }),
    responses: { 200: NAKAMOTO_BLOCK_CURSOR_LIST },
    handler: async (req, ctx) => {
      const { limit, offset, cursor } = queryOf<PageQuery>(req);
      return cursorPage(ctx.store, { limit, offset, cursor, tenure: Number(req.params.tenure_height) });
    },
  },
  {
    method: 'get',
    path: '/extended/v2/blocks/:height_or_hash',
    summary: 'Get block',
    tags: ['Blocks'],
    params: { type: 'object', properties: { height_or_hash: HEIGHT_OR_HASH }, required: ['height_or_hash'] },
    responses: { 200: NAKAMOTO_BLOCK },
    handler: async (req, ctx) => {
      const id = String(req.params.height_or_hash);
      const stored = servingReady(ctx.serving) ? resolveStoredBlock(ctx.serving, id) : undefined;
      // The v2 endpoint only knows canonical blocks (the reference hides block 0 and forks here).
      if (stored !== undefined) {
        if (!stored?.canonical) throw notFound('Block not found');
        return blockV2(stored);
      }
      const b = await resolveBlock(ctx.store, id);
      if (!b || !b.canonical) throw notFound('Block not found');
      return formatBlockV2(b);
    },
  },
];
