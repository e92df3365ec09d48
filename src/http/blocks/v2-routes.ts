// /extended/v2/blocks: cursor-paginated canonical blocks and single-block lookup.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { blockByHash, blockByHeight, canonicalBlockCount, canonicalBlocks, type BlockRow } from './queries.ts';
import { formatBlockV2 } from './format.ts';
import { limitOffset } from '../params.ts';
import { rows } from '../query.ts';
import { CANONICAL_BLOCKS } from '../canonical.ts';
import type { Store } from '../../storage/client.ts';

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

/** Height of the canonical block `n` positions from `fromHeight` (below when n >= 0 going down). */
async function canonicalHeightAt(store: Store, sql: string, params: Record<string, unknown>): Promise<string | undefined> {
  return (await rows<{ index_block_hash: string }>(store, sql, params))[0]?.index_block_hash;
}

export const blockV2Routes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v2/blocks',
    summary: 'Get blocks',
    tags: ['Blocks'],
    query: limitOffset(20, 30, { cursor: { type: 'string' } }),
    responses: { 200: { $ref: 'NakamotoBlockListResponse' } },
    handler: async (req, ctx) => {
      const { limit, offset, cursor } = queryOf<{ limit: number; offset: number; cursor?: string }>(req);
      const store = ctx.store;
      const total = await canonicalBlockCount(store);
      // The page starts `offset` canonical blocks below the cursor block (default: the tip).
      let startHeight: number | undefined;
      if (cursor) {
        const c = await rows<{ block_height: string }>(store, `SELECT block_height FROM ${CANONICAL_BLOCKS} WHERE index_block_hash = {c:String}`, { c: cursor });
        if (!c[0]) return { limit, offset, total: 0, next_cursor: null, prev_cursor: null, cursor: null, results: [] };
        startHeight = Number(c[0].block_height);
      }
      const start = await rows<{ block_height: string }>(
        store,
        `SELECT block_height FROM ${CANONICAL_BLOCKS} WHERE block_height <= {s:UInt32} ORDER BY block_height DESC LIMIT 1 OFFSET {o:UInt32}`,
        { s: startHeight ?? 4294967295, o: offset },
      );
      if (!start[0]) return { limit, offset, total: 0, next_cursor: null, prev_cursor: null, cursor: null, results: [] };
      const blocks = await canonicalBlocks(store, { limit, maxHeight: Number(start[0].block_height) });
      const first = blocks[0]?.block_height ?? 0;
      const [prev, next] = await Promise.all([
        canonicalHeightAt(store, `SELECT index_block_hash FROM ${CANONICAL_BLOCKS} WHERE block_height < {h:UInt32} ORDER BY block_height DESC LIMIT 1 OFFSET {o:UInt32}`, { h: first, o: Math.max(0, limit - 1) }),
        canonicalHeightAt(store, `SELECT index_block_hash FROM ${CANONICAL_BLOCKS} WHERE block_height > {h:UInt32} ORDER BY block_height ASC LIMIT 1 OFFSET {o:UInt32}`, { h: first, o: Math.max(0, limit - 1) }),
      ]);
      return {
        limit,
        offset,
        // As the reference: the count comes with the page's rows, so an empty page says 0.
        total: blocks.length ? total : 0,
        next_cursor: next ?? null,
        prev_cursor: prev ?? null,
        cursor: blocks[0]?.index_block_hash ?? null,
        results: blocks.map(formatBlockV2),
      };
    },
  },
  {
    method: 'get',
    path: '/extended/v2/blocks/:height_or_hash',
    summary: 'Get block',
    tags: ['Blocks'],
    params: { type: 'object', properties: { height_or_hash: HEIGHT_OR_HASH }, required: ['height_or_hash'] },
    responses: { 200: { $ref: 'NakamotoBlock' } },
    handler: async (req, ctx) => {
      const b = await resolveBlock(ctx.store, req.params.height_or_hash);
      if (!b) throw notFound('Block not found');
      return formatBlockV2(b);
    },
  },
];
