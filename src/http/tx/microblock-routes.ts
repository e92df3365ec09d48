// /extended/v1/microblock: recent microblocks, one by hash, and the txs of unconfirmed ones.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { renderPlacedTxs } from './tx-object.ts';
import { getTip, unanchoredTxs } from './lists.ts';
import { formatMicroblock, microblockByHash, microblockPage, microblockTxIds } from './microblocks.ts';
import { MICROBLOCK, MICROBLOCK_LIST, UNANCHORED_TXS } from './schemas.ts';
import { checkHex, has0x, limitParam, OFFSET, paging, redirect } from './params.ts';

export const microblockRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v1/microblock',
    summary: 'Get recent microblocks',
    tags: ['Microblocks'],
    query: { type: 'object', properties: { limit: limitParam(20, 200), offset: OFFSET } },
    responses: { 200: MICROBLOCK_LIST },
    handler: async (req, ctx) => {
      const { limit, offset } = paging(queryOf<{ limit: number; offset: number }>(req));
      const { total, results } = await microblockPage(ctx.store, limit, offset);
      return { limit, offset, total, results: results.map((r) => formatMicroblock(r.mb, r.txs)) };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/microblock/unanchored/txs',
    summary: 'Get the list of current transactions that belong to unanchored microblocks',
    tags: ['Microblocks'],
    responses: { 200: UNANCHORED_TXS },
    handler: async (_req, ctx) => {
      const txs = await unanchoredTxs(ctx.store, await getTip(ctx.store));
      return { total: txs.length, results: await renderPlacedTxs(ctx.store, txs) };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/microblock/:hash',
    summary: 'Get microblock',
    tags: ['Microblocks'],
    params: { type: 'object', properties: { hash: { type: 'string' } }, required: ['hash'] },
    responses: { 200: MICROBLOCK },
    handler: async (req, ctx) => {
      const { hash } = req.params;
      if (!has0x(hash)) return redirect(`/extended/v1/microblock/0x${hash}`);
      const mb = await microblockByHash(ctx.store, checkHex(hash));
      if (!mb) throw notFound('cannot find microblock by hash');
      const txs = await microblockTxIds(ctx.store, [mb]);
      return formatMicroblock(mb, txs.get(mb.microblock_hash) ?? []);
    },
  },
];
