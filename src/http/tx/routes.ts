// /extended/v1/tx: transaction lookups, lists and events, as the reference API answers them.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { badRequest, httpError, notFound } from '../errors.ts';
import { HEIGHT_PARAM } from '../params.ts';
import { blockByHash, blockByHeight } from '../blocks/queries.ts';
import { decodeTransaction, isValidPrincipal, parsePrincipal } from '../../stacks/codec/index.ts';
import { getMinedTxObjects, getTxObject, getTxObjects } from './tx-object.ts';
import { blockTxPage, txListPage, type SortBy } from './lists.ts';
import { eventsPage, formatEvent, type EventKind } from './events.ts';
import { fetchRawTx, normalizeTxId } from './queries.ts';
import { EVENTS_PAGE, RAW_TRANSACTION, TRANSACTION_LIST, TX_OR_MEMPOOL_TX, TX_SEARCH } from './schemas.ts';
import { JsonText } from '../../server/json-text.ts';
import { txJson } from './served.ts';
import { rawTxOf } from '../../serving/reads.ts';
import { servedTxList } from './served-lists.ts';
import {
  BOOL_FALSE,
  checkEnumList,
  checkHex,
  EVENT_TYPES,
  has0x,
  LIST,
  limitParam,
  listParam,
  OFFSET,
  paging,
  redirect,
  searchOf,
  TX_ID_PATTERN,
  TX_TYPES,
} from './params.ts';
import { servingReady } from '../reads/source.ts';

const TX_ID = { type: 'string', pattern: TX_ID_PATTERN };
const TX_ID_PARAMS = { type: 'object', properties: { tx_id: TX_ID }, required: ['tx_id'] };

/** Recipient of a token transfer's bytes. */
function transferRecipient(rawTx: string, txId: string): string | undefined {
  try {
    const p = decodeTransaction(rawTx, { txId }).payload;
    return p.type === 'token_transfer' ? p.recipient : undefined;
  } catch {
    return undefined;
  }
}

const isStandardAddress = (a: string): boolean => {
  try {
    return !a.includes('.') && !!parsePrincipal(a);
  } catch {
    return false;
  }
};

export const txRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v1/tx',
    summary: 'Get recent transactions',
    tags: ['Transactions'],
    query: {
      type: 'object',
      properties: {
        offset: OFFSET,
        limit: limitParam(20, 50),
        type: LIST,
        unanchored: BOOL_FALSE,
        order: { enum: ['asc', 'desc'] },
        sort_by: { enum: ['block_height', 'burn_block_time', 'fee'], default: 'block_height' },
        from_address: { type: 'string' },
        to_address: { type: 'string' },
        start_time: { type: 'integer' },
        end_time: { type: 'integer' },
        contract_id: { type: 'string' },
        function_name: { type: 'string' },
        nonce: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        exclude_function_args: BOOL_FALSE,
      },
    },
    responses: { 200: TRANSACTION_LIST },
    handler: async (req, ctx) => {
      const q = paging(queryOf<{
        offset: number; limit: number; unanchored: boolean; order?: 'asc' | 'desc'; sort_by: SortBy; from_address?: string; to_address?: string;
        start_time?: number; end_time?: number; contract_id?: string; function_name?: string; nonce?: number; exclude_function_args: boolean;
      }>(req));
      const types = listParam(req, 'type');
      checkEnumList('type', types, TX_TYPES);
      if (q.from_address !== undefined && !isStandardAddress(q.from_address)) {
        throw httpError(400, `Invalid query parameter for "from_address": "${q.from_address}" is not a valid STX address`);
      }
      if (q.to_address !== undefined && !isValidPrincipal(q.to_address)) {
        throw httpError(400, `Invalid query parameter for "to_address": "${q.to_address}" is not a valid STX address`);
      }
      if (q.contract_id !== undefined && !isValidPrincipal(q.contract_id)) {
        throw httpError(400, `Invalid query parameter for "contract_id": "${q.contract_id}" is not a valid principal`);
      }
      const unfiltered = !types.length && q.from_address === undefined && q.to_address === undefined && !q.start_time && !q.end_time && q.contract_id === undefined && !q.function_name && !q.nonce;
      if (unfiltered && q.sort_by === 'block_height' && q.order !== 'asc' && servingReady(ctx.serving)) {
        const served = servedTxList(ctx.serving, q);
        if (served) return served;
      }
      const { total, keys } = await txListPage(ctx.store, {
        filter: {
          types,
          fromAddress: q.from_address,
          toAddress: q.to_address,
          startTime: q.start_time,
          endTime: q.end_time,
          contractId: q.contract_id,
          functionName: q.function_name,
          nonce: q.nonce,
        },
        sortBy: q.sort_by,
        desc: q.order !== 'asc',
        limit: q.limit,
        offset: q.offset,
        includeUnanchored: q.unanchored,
        recipientOf: transferRecipient,
      });
      const results = await getMinedTxObjects(ctx.store, keys, { excludeFunctionArgs: q.exclude_function_args });
      return { limit: q.limit, offset: q.offset, total, results };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/tx/multiple',
    summary: 'Get list of details for transactions',
    tags: ['Transactions'],
    query: {
      type: 'object',
      properties: { tx_id: LIST, event_limit: limitParam(20, 100), event_offset: OFFSET, unanchored: BOOL_FALSE, exclude_function_args: BOOL_FALSE },
      required: ['tx_id'],
    },
    responses: { 200: TX_SEARCH },
    handler: async (req, ctx) => {
      const q = paging(queryOf<{ event_limit: number; event_offset: number; unanchored: boolean; exclude_function_args: boolean }>(req));
      const ids = listParam(req, 'tx_id');
      ids.forEach((id, i) => {
        if (!new RegExp(TX_ID_PATTERN).test(id)) throw badRequest(`querystring/tx_id/${i} must match pattern "${TX_ID_PATTERN}"`);
        checkHex(id);
      });
      if (servingReady(ctx.serving)) {
        const s = ctx.serving;
        const answers = ids.map((id) => txJson(s, normalizeTxId(id), { includeUnanchored: q.unanchored, excludeFunctionArgs: q.exclude_function_args, events: { offset: q.event_offset, limit: q.event_limit } }));
        if (answers.every((a) => a !== undefined)) {
          const members = ids.map((id, i) => {
            const a = answers[i];
            return `${JSON.stringify(id)}:${a ? `{"found":true,"result":${a.text}}` : `{"found":false,"result":{"tx_id":${JSON.stringify(id)}}}`}`;
          });
          return new JsonText(`{${[...new Map(members.map((m, i) => [ids[i], m])).values()].join(',')}}`);
        }
      }
      const found = await getTxObjects(ctx.store, ids, {
        includeUnanchored: q.unanchored,
        excludeFunctionArgs: q.exclude_function_args,
        events: { offset: q.event_offset, limit: q.event_limit },
      });
      const out: Record<string, unknown> = {};
      for (const id of ids) {
        const tx = found.get(normalizeTxId(id));
        out[id] = tx ? { found: true, result: tx } : { found: false, result: { tx_id: id } };
      }
      return out;
    },
  },
  {
    method: 'get',
    path: '/extended/v1/tx/events',
    summary: 'Transaction Events',
    tags: ['Transactions'],
    query: {
      type: 'object',
      properties: {
        tx_id: TX_ID,
        address: { type: 'string', pattern: '^[0123456789ABCDEFGHJKMNPQRSTVWXYZ]{28,41}(\\.[a-zA-Z]([a-zA-Z0-9]|[-_]){0,39})?$' },
        type: LIST,
        offset: OFFSET,
        limit: limitParam(20, 100),
      },
    },
    responses: { 200: EVENTS_PAGE },
    handler: async (req, ctx) => {
      const q = paging(queryOf<{ tx_id?: string; address?: string; offset: number; limit: number }>(req));
      if (!q.address && !q.tx_id) throw httpError(400, `can not find 'address' or 'tx_id' in the request`);
      if (q.address && q.tx_id) throw httpError(400, `can't handle both 'address' and 'tx_id' in the same request`);
      if (q.address && !isValidPrincipal(q.address)) throw httpError(400, `invalid STX address "${q.address}"`);
      const types = listParam(req, 'type');
      checkEnumList('type', types, EVENT_TYPES);
      const kinds = (types.length ? types : EVENT_TYPES) as EventKind[];
      const by = q.address ? { address: q.address } : { txId: checkHex(normalizeTxId(q.tx_id!)) };
      const events = await eventsPage(ctx.store, by, kinds, q.limit, q.offset);
      return { limit: q.limit, offset: q.offset, events: events.map(formatEvent) };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/tx/block/:block_hash',
    summary: 'Transactions by block hash',
    tags: ['Transactions'],
    params: { type: 'object', properties: { block_hash: { type: 'string' } }, required: ['block_hash'] },
    query: { type: 'object', properties: { offset: OFFSET, limit: limitParam(20, 200), exclude_function_args: BOOL_FALSE } },
    responses: { 200: TRANSACTION_LIST },
    handler: async (req, ctx) => {
      const q = paging(queryOf<{ offset: number; limit: number; exclude_function_args: boolean }>(req));
      const hash = checkHex(req.params.block_hash);
      const block = await blockByHash(ctx.store, 'block_hash', hash);
      if (!block) throw notFound('no block found by hash');
      return blockTxList(ctx, block, q);
    },
  },
  {
    method: 'get',
    path: '/extended/v1/tx/block_height/:height',
    summary: 'Transactions by block height',
    tags: ['Transactions'],
    params: { type: 'object', properties: { height: HEIGHT_PARAM }, required: ['height'] },
    query: { type: 'object', properties: { offset: OFFSET, limit: limitParam(20, 50), exclude_function_args: BOOL_FALSE } },
    responses: { 200: TRANSACTION_LIST },
    handler: async (req, ctx) => {
      const q = paging(queryOf<{ offset: number; limit: number; exclude_function_args: boolean }>(req));
      const block = await blockByHeight(ctx.store, Number(req.params.height));
      if (!block) throw notFound(`no block found at height ${req.params.height}`);
      return blockTxList(ctx, block, q);
    },
  },
  {
    method: 'get',
    path: '/extended/v1/tx/:tx_id',
    summary: 'Get transaction',
    tags: ['Transactions'],
    params: TX_ID_PARAMS,
    query: {
      type: 'object',
      properties: { event_limit: limitParam(20, 100), event_offset: OFFSET, unanchored: BOOL_FALSE, exclude_function_args: BOOL_FALSE },
    },
    responses: { 200: TX_OR_MEMPOOL_TX },
    stableUntilReorg: isSettledCanonicalTx,
    handler: async (req, ctx) => {
      const id = req.params.tx_id;
      if (!has0x(id)) return redirect(`/extended/v1/tx/0x${id}${searchOf(req)}`);
      const q = paging(queryOf<{ event_limit: number; event_offset: number; unanchored: boolean; exclude_function_args: boolean }>(req));
      if (servingReady(ctx.serving)) {
        const served = txJson(ctx.serving, normalizeTxId(checkHex(id)), {
          includeUnanchored: q.unanchored,
          excludeFunctionArgs: q.exclude_function_args,
          events: { offset: q.event_offset, limit: q.event_limit },
        });
        if (served === null) throw notFound('could not find transaction by ID');
        if (served) return new JsonText(served.text, served.settled);
      }
      const tx = await getTxObject(ctx.store, checkHex(id), {
        includeUnanchored: q.unanchored,
        excludeFunctionArgs: q.exclude_function_args,
        events: { offset: q.event_offset, limit: q.event_limit },
      });
      if (!tx) throw notFound('could not find transaction by ID');
      return tx;
    },
  },
  {
    method: 'get',
    path: '/extended/v1/tx/:tx_id/raw',
    summary: 'Get raw transaction',
    tags: ['Transactions'],
    params: TX_ID_PARAMS,
    query: { type: 'object', properties: { event_limit: limitParam(20, 100), event_offset: OFFSET } },
    responses: { 200: RAW_TRANSACTION },
    handler: async (req, ctx) => {
      const id = req.params.tx_id;
      if (!has0x(id)) return redirect(`/extended/v1/tx/0x${id}/raw`);
      const raw = servingReady(ctx.serving) ? rawTxOf(ctx.serving.store, normalizeTxId(checkHex(id))) : await fetchRawTx(ctx.store, checkHex(id));
      if (raw === undefined) throw notFound('could not find raw transaction by ID');
      return { raw_tx: raw };
    },
  },
];

/** A block's canonical txs, newest first, as the v1 block-tx lists show them (no events). */
async function blockTxList(
  ctx: ApiContext,
  block: { index_block_hash: string; canonical: boolean },
  q: { offset: number; limit: number; exclude_function_args: boolean },
) {
  // Only canonical txs are listed: an orphaned block has none.
  if (!block.canonical) return { limit: q.limit, offset: q.offset, total: 0, results: [] };
  const { total, keys } = await blockTxPage(ctx.store, block.index_block_hash, 'desc', q.limit, q.offset);
  const results = await getMinedTxObjects(ctx.store, keys, { excludeFunctionArgs: q.exclude_function_args });
  return { limit: q.limit, offset: q.offset, total, results };
}

/** A tx mined in a canonical (anchored) block: its object changes only if a reorg moves it. */
function isSettledCanonicalTx(body: unknown): boolean {
  const t = body as { tx_status?: string; canonical?: boolean; microblock_canonical?: boolean; is_unanchored?: boolean };
  return t.canonical === true && t.microblock_canonical === true && t.is_unanchored === false && ['success', 'abort_by_response', 'abort_by_post_condition'].includes(t.tx_status ?? '');
}
