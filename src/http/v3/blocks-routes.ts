// /extended/v3/blocks/:height_or_hash/transactions: a canonical block's txs, newest first, by cursor.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { v3Schema } from './schemas.ts';
import { notFound } from '../errors.ts';
import { HEIGHT_OR_HASH } from '../blocks/v2-routes.ts';
import { blockTxList, canonicalBlock } from './queries.ts';
import { txSummaryPage } from './transactions-routes.ts';
import { TX_PAGE_QUERY } from './params.ts';

export const v3BlockRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v3/blocks/:height_or_hash/transactions',
    responses: { 200: v3Schema('TransactionSummaryList') },
    summary: 'Get block transactions',
    description: 'Transactions confirmed in a single canonical block, newest first, by cursor.',
    operationId: 'get_block_transactions',
    tags: ['Transactions'],
    params: { type: 'object', properties: { height_or_hash: HEIGHT_OR_HASH }, required: ['height_or_hash'] },
    query: TX_PAGE_QUERY,
    handler: async (req, ctx) => {
      const block = await canonicalBlock(ctx, String(req.params.height_or_hash));
      if (!block) throw notFound('Block not found');
      // The total is the block's tx count, even past its last page (as the reference).
      return txSummaryPage(ctx, blockTxList(ctx, block), queryOf(req), async () => block.tx_count);
    },
  },
];
