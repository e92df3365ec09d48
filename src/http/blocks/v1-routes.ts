// /extended/v1/block: the reference API's v1 block endpoints.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { httpError, notFound } from '../errors.ts';
import { blockByBurnBlock, blockByHash, blockByHeight, canonicalBlockCount, canonicalBlocks, canonicalMicroblocksOf, type BlockRow } from './queries.ts';
import { formatBlockV1 } from '../../render/block.ts';
import { limitOffset, HEIGHT_PARAM, HASH_PARAM } from '../params.ts';
import type { Store } from '../../storage/client.ts';
import { BLOCK, BLOCK_LIST } from './schemas.ts';
import { blockByHash as storedBlockByHash, blockByIndexHash, blockListV1, blockV1, blockV1Text, canonicalIndexHashAt, canonicalIndexHashOf } from './served.ts';
import { JsonText } from '../../server/json-text.ts';
import { servingReady } from '../reads/source.ts';

/** One block with its microblocks, as the single-block endpoints show them. */
export async function withMicroblocks(store: Store, b: BlockRow) {
  const mbs = await canonicalMicroblocksOf(store, [b.index_block_hash, b.parent_index_block_hash]);
  const bySeq = (x: { microblock_sequence: number }, y: { microblock_sequence: number }) => x.microblock_sequence - y.microblock_sequence;
  return formatBlockV1(b, {
    accepted: mbs.filter((m) => m.parent_index_block_hash === b.parent_index_block_hash).sort(bySeq),
    streamed: mbs.filter((m) => m.parent_index_block_hash === b.index_block_hash).sort(bySeq).map((m) => m.microblock_hash),
  });
}

/** A page of blocks with microblocks, as the reference's list endpoint shows them. */
export async function formatBlockPage(store: Store, blocks: BlockRow[]) {
  const anchors = [...new Set(blocks.flatMap((b) => [b.index_block_hash, b.parent_index_block_hash]))];
  const mbs = (await canonicalMicroblocksOf(store, anchors)).sort((x, y) => y.microblock_sequence - x.microblock_sequence);
  return blocks.map((b) =>
    formatBlockV1(b, {
      accepted: mbs.filter((m) => m.parent_index_block_hash === b.parent_index_block_hash),
      // The reference lists here the microblocks the *parent* block accepted (kept for compatibility).
      streamed: mbs.filter((m) => m.index_block_hash === b.parent_index_block_hash).map((m) => m.microblock_hash),
    }),
  );
}

const normHash = (h: string) => (h.startsWith('0x') ? h : `0x${h}`).toLowerCase();

function checkHash(h: string): string {
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(h)) throw httpError(400, 'Invalid hash characters');
  return normHash(h);
}

export const blockV1Routes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v1/block',
    summary: 'Get recent blocks',
    tags: ['Blocks'],
    query: limitOffset(20, 30),
    responses: { 200: BLOCK_LIST },
    handler: async (req, ctx) => {
      const { limit, offset } = queryOf<{ limit: number; offset: number }>(req);
      const served = servingReady(ctx.serving) ? blockListV1(ctx.serving, limit, offset) : undefined;
      if (served) return new JsonText(`{"limit":${limit},"offset":${offset},"total":${served.total},"results":[${served.results.join(',')}]}`);
      const [total, blocks] = await Promise.all([canonicalBlockCount(ctx.store), canonicalBlocks(ctx.store, { limit, offset })]);
      return { limit, offset, total, results: await formatBlockPage(ctx.store, blocks) };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/block/by_height/:height',
    summary: 'Get block by height',
    tags: ['Blocks'],
    params: { type: 'object', properties: { height: HEIGHT_PARAM }, required: ['height'] },
    responses: { 200: BLOCK },
    handler: async (req, ctx) => {
      if (servingReady(ctx.serving)) {
        const ibh = canonicalIndexHashAt(ctx.serving, Number(req.params.height));
        const text = ibh && blockV1Text(ctx.serving, ibh);
        if (text) return new JsonText(text);
        const served = ibh && blockV1(ctx.serving, blockByIndexHash(ctx.serving, ibh)!);
        if (served) return served;
      }
      const b = await blockByHeight(ctx.store, Number(req.params.height));
      if (!b) throw notFound(`cannot find block by height ${req.params.height}`);
      return withMicroblocks(ctx.store, b);
    },
  },
  {
    method: 'get',
    path: '/extended/v1/block/by_burn_block_height/:burn_block_height',
    summary: 'Get block by burn block height',
    tags: ['Blocks'],
    params: { type: 'object', properties: { burn_block_height: HEIGHT_PARAM }, required: ['burn_block_height'] },
    responses: { 200: BLOCK },
    handler: async (req, ctx) => {
      const b = await blockByBurnBlock(ctx.store, { height: Number(req.params.burn_block_height) });
      if (!b) throw notFound(`cannot find block by burn block height ${req.params.burn_block_height}`);
      return withMicroblocks(ctx.store, b);
    },
  },
  {
    method: 'get',
    path: '/extended/v1/block/by_burn_block_hash/:burn_block_hash',
    summary: 'Get block by burn block hash',
    tags: ['Blocks'],
    params: { type: 'object', properties: { burn_block_hash: HASH_PARAM }, required: ['burn_block_hash'] },
    responses: { 200: BLOCK },
    handler: async (req, ctx) => {
      const h = normHash(req.params.burn_block_hash);
      const b = await blockByBurnBlock(ctx.store, { hash: h });
      if (!b) throw notFound(`cannot find block by burn block hash ${h}`);
      return withMicroblocks(ctx.store, b);
    },
  },
  {
    method: 'get',
    path: '/extended/v1/block/:hash',
    summary: 'Get block by hash',
    tags: ['Blocks'],
    params: { type: 'object', properties: { hash: { type: 'string' } }, required: ['hash'] },
    responses: { 200: BLOCK },
    handler: async (req, ctx) => {
      const h = checkHash(req.params.hash);
      if (servingReady(ctx.serving)) {
        const ibh = canonicalIndexHashOf(ctx.serving, h);
        const text = ibh && blockV1Text(ctx.serving, ibh);
        if (text) return new JsonText(text);
        const stored = storedBlockByHash(ctx.serving, h);
        if (!stored) throw notFound(`cannot find block by hash ${h}`);
        const served = blockV1(ctx.serving, stored);
        if (served) return served;
      }
      const b = await blockByHash(ctx.store, 'block_hash', h);
      if (!b) throw notFound(`cannot find block by hash ${h}`);
      return withMicroblocks(ctx.store, b);
    },
  },
];
