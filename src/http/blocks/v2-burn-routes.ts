// /extended/v2 burn blocks, blocks per burn block, signer signatures, average block times.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { notFound, httpError } from '../errors.ts';
import { limitOffset } from '../params.ts';
import { averageBlockTimes, burnBlock, burnBlockFilter, burnBlockKnown, burnBlockPage } from './burn-queries.ts';
import { canonicalBlockCount, canonicalBlocksWhere } from './queries.ts';
import { formatBlockV2 } from '../../render/block.ts';
import { HEIGHT_OR_HASH, resolveBlock } from './v2-routes.ts';
import { AVERAGE_BLOCK_TIMES, BURN_BLOCK, BURN_BLOCK_LIST, NAKAMOTO_BLOCK_LIST, SIGNER_SIGNATURES } from './schemas.ts';

const ID_PARAMS = { type: 'object', properties: { height_or_hash: HEIGHT_OR_HASH }, required: ['height_or_hash'] };

export const burnBlockV2Routes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v2/burn-blocks',
    summary: 'Get burn blocks',
    tags: ['Burn Blocks'],
    query: limitOffset(20, 30),
    responses: { 200: BURN_BLOCK_LIST },
    handler: async (req, ctx) => {
      const { limit, offset } = queryOf<{ limit: number; offset: number }>(req);
      const results = await burnBlockPage(ctx.store, limit, offset);
      // As the reference: `total` is its canonical block count, and 0 with an empty page.
      return { limit, offset, total: results.length ? await canonicalBlockCount(ctx.store) : 0, results };
    },
  },
  {
    method: 'get',
    path: '/extended/v2/burn-blocks/:height_or_hash',
    summary: 'Get burn block',
    tags: ['Burn Blocks'],
    params: ID_PARAMS,
    responses: { 200: BURN_BLOCK },
    handler: async (req, ctx) => {
      const b = await burnBlock(ctx.store, String(req.params.height_or_hash));
      if (!b) throw notFound('Burn block not found');
      return b;
    },
  },
  {
    method: 'get',
    path: '/extended/v2/burn-blocks/:height_or_hash/blocks',
    summary: 'Get blocks by burn block',
    tags: ['Burn Blocks'],
    params: ID_PARAMS,
    query: limitOffset(20, 30),
    responses: { 200: NAKAMOTO_BLOCK_LIST },
    handler: async (req, ctx) => {
      const id = String(req.params.height_or_hash);
      const { limit, offset } = queryOf<{ limit: number; offset: number }>(req);
      if (!(await burnBlockKnown(ctx.store, id))) throw httpError(404, 'Burn block not found');
      const f = await burnBlockFilter(ctx.store, id);
      const { total, results } = await canonicalBlocksWhere(ctx.store, f.where, f.params, limit, offset);
      return { limit, offset, total: results.length ? total : 0, results: results.map(formatBlockV2) };
    },
  },
  {
    method: 'get',
    path: '/extended/v2/blocks/average-times',
    summary: 'Get average block times',
    tags: ['Blocks'],
    responses: { 200: AVERAGE_BLOCK_TIMES },
    handler: async (_req, ctx) => averageBlockTimes(ctx.store),
  },
  {
    method: 'get',
    path: '/extended/v2/blocks/:height_or_hash/signer-signatures',
    summary: 'Get signer signatures for block',
    tags: ['Blocks'],
    params: ID_PARAMS,
    query: limitOffset(500, 1000),
    responses: { 200: SIGNER_SIGNATURES },
    handler: async (req, ctx) => {
      const { limit, offset } = queryOf<{ limit: number; offset: number }>(req);
      const b = await resolveBlock(ctx.store, String(req.params.height_or_hash));
      if (!b || !b.canonical) return { limit, offset, total: 0, results: [] };
      return { limit, offset, total: b.signer_signatures.length, results: b.signer_signatures.slice(offset, offset + limit) };
    },
  },
];
