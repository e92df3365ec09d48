// /extended/v2/blocks/:height_or_hash/transactions: a canonical block's txs, oldest first.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { HEIGHT_OR_HASH, resolveBlock } from '../blocks/v2-routes.ts';
import { getMinedTxObjects } from './tx-object.ts';
import { blockTxPage } from './lists.ts';
import { limitParam, OFFSET } from './params.ts';
import { TRANSACTION_LIST } from './schemas.ts';
import { resolveStoredBlock } from '../blocks/v2-routes.ts';
import { blockTxsPage } from '../blocks/served.ts';
import { servingReady } from '../reads/source.ts';

export const txV2Routes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v2/blocks/:height_or_hash/transactions',
    summary: 'Get transactions by block',
    tags: ['Transactions'],
    params: { type: 'object', properties: { height_or_hash: HEIGHT_OR_HASH }, required: ['height_or_hash'] },
    query: { type: 'object', properties: { limit: limitParam(20, 50), offset: OFFSET } },
    responses: { 200: TRANSACTION_LIST },
    handler: async (req, ctx) => {
      const { limit, offset } = queryOf<{ limit: number; offset: number }>(req);
      const stored = servingReady(ctx.serving) ? resolveStoredBlock(ctx.serving, String(req.params.height_or_hash)) : undefined;
      if (stored !== undefined) {
        if (!stored?.canonical) throw notFound('Block not found');
        const page = blockTxsPage(ctx.serving!, stored, limit, offset);
        if (page === null) throw notFound('Block not found');
        if (page) return page;
      }
      const block = await resolveBlock(ctx.store, req.params.height_or_hash);
      // Only canonical blocks; a page without txs is "not found" too, as in the reference.
      if (!block || !block.canonical) throw notFound('Block not found');
      const { keys } = await blockTxPage(ctx.store, block.index_block_hash, 'asc', limit, offset);
      if (keys.length === 0) throw notFound('Block not found');
      const results = await getMinedTxObjects(ctx.store, keys, { withAbi: false });
      return { limit, offset, total: block.tx_count, results };
    },
  },
];
