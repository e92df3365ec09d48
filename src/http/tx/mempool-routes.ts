// /extended/v1/tx/mempool (list, dropped, stats) and /extended/v2/mempool/fees.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { httpError } from '../errors.ts';
import { PRINCIPAL_PATTERN } from '../params.ts';
import { decodeTransaction, isValidPrincipal } from '../../stacks/codec/index.ts';
import { renderMempoolTxs } from './tx-object.ts';
import { droppedEntries, mempoolOrder, mempoolRawTxs, mempoolRowsOf, pendingEntries, pendingNames, percentileCont, receiptHeights, type MempoolEntry, type MempoolOrderBy } from './mempool.ts';
import { tipHeight } from './queries.ts';
import { MEMPOOL_FEES, MEMPOOL_STATS, MEMPOOL_TRANSACTION_LIST } from './schemas.ts';
import { BOOL_FALSE, limitParam, OFFSET, paging } from './params.ts';
import { pendingTxsJson } from './served-lists.ts';
import { JsonText } from '../../server/json-text.ts';
import type { PendingEntry } from '../../serving/docs.ts';
import { servingReady, type Serving } from '../reads/source.ts';

const ADDRESS = { type: 'string', pattern: PRINCIPAL_PATTERN };

async function recipientsOf(ctx: ApiContext, entries: MempoolEntry[]): Promise<Map<string, string>> {
  const transfers = entries.filter((e) => e.type_id === 'token_transfer');
  const raws = await mempoolRawTxs(ctx.store, transfers.map((e) => e.tx_id));
  const out = new Map<string, string>();
  for (const [id, raw] of raws) {
    try {
      const p = decodeTransaction(raw, { txId: id }).payload;
      if (p.type === 'token_transfer') out.set(id, p.recipient);
    } catch {
      // not decodable: no recipient
    }
  }
  return out;
}

/** The pending set as the serving view holds it, as list entries (recipients known). */
function servedEntries(s: Serving): { entries: MempoolEntry[]; recipients: Map<string, string>; byId: Map<string, PendingEntry> } {
  const entries: MempoolEntry[] = [];
  const recipients = new Map<string, string>();
  for (const e of s.view.pending.values()) {
    entries.push({ tx_id: e.tx_id, receipt_time: e.receipt_time, sender_address: e.sender_address, fee_rate: BigInt(e.fee_rate), type_id: e.type_id, contract_id: e.contract_id, tx_size: e.tx_size, log_id: e.log_id, status: 'pending', reason: '' });
    if (e.recipient) recipients.set(e.tx_id, e.recipient);
  }
  return { entries, recipients, byId: s.view.pending };
}

const TX_TYPES_STATS = ['token_transfer', 'smart_contract', 'contract_call', 'poison_microblock'] as const;

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p25: percentileCont(sorted, 0.25), p50: percentileCont(sorted, 0.5), p75: percentileCont(sorted, 0.75), p95: percentileCont(sorted, 0.95) };
}

/** PostgreSQL's ROUND of a double: half to even. */
export function roundHalfEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

function priorities(fees: number[]) {
  const p = percentiles(fees);
  const r = (v: number | null) => (v === null ? 0 : roundHalfEven(v));
  return { no_priority: r(p.p25), low_priority: r(p.p50), medium_priority: r(p.p75), high_priority: r(p.p95) };
}

export const mempoolRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v1/tx/mempool',
    summary: 'Get mempool transactions',
    tags: ['Transactions'],
    query: {
      type: 'object',
      properties: {
        sender_address: ADDRESS,
        recipient_address: ADDRESS,
        address: ADDRESS,
        order_by: { enum: ['age', 'size', 'fee'] },
        order: { enum: ['asc', 'desc'] },
        unanchored: BOOL_FALSE,
        offset: OFFSET,
        limit: limitParam(20, 50),
        exclude_function_args: BOOL_FALSE,
      },
    },
    responses: { 200: MEMPOOL_TRANSACTION_LIST },
    handler: async (req, ctx) => {
      const q = paging(queryOf<{
        sender_address?: string; recipient_address?: string; address?: string; order_by?: MempoolOrderBy; order?: 'asc' | 'desc';
        unanchored: boolean; offset: number; limit: number; exclude_function_args: boolean;
      }>(req));
      for (const a of [q.sender_address, q.recipient_address, q.address]) {
        if (a && !isValidPrincipal(a)) throw httpError(400, `Error: Invalid query parameter: "${a}" is not a valid STX address or principal`);
      }
      if (q.address && (q.sender_address || q.recipient_address)) throw httpError(400, 'The "address" filter cannot be specified with other address filters');
      // Without `unanchored`, txs of unconfirmed microblocks count as pending: that list is ClickHouse's.
      const served = servingReady(ctx.serving) && (q.unanchored || !ctx.serving.view.hasLiveMicroblocks) ? servedEntries(ctx.serving) : undefined;
      const { entries, countable } = served ? { entries: served.entries, countable: served.entries.length } : await pendingEntries(ctx.store, q.unanchored);
      const filtered = !!(q.address || q.sender_address || q.recipient_address);
      let list = entries;
      if (filtered) {
        const recipients = served ? served.recipients : q.address || q.recipient_address ? await recipientsOf(ctx, entries) : new Map<string, string>();
        list = entries.filter((e) => {
          const to = recipients.get(e.tx_id);
          if (q.address) return pendingNames(e, q.address, to);
          return (!q.sender_address || e.sender_address === q.sender_address) && (!q.recipient_address || to === q.recipient_address);
        });
      }
      const page = [...list].sort(mempoolOrder(q.order_by, q.order !== 'asc')).slice(q.offset, q.offset + q.limit);
      // As the reference: the count comes with the page's rows (an empty page says 0); unfiltered,
      // it is the mempool counter, which leaves out txs mined in unconfirmed microblocks.
      const total = page.length === 0 ? 0 : filtered ? list.length : countable;
      const servedPage = served && pendingTxsJson(ctx.serving!, page.map((e) => served.byId.get(e.tx_id)!), { excludeFunctionArgs: q.exclude_function_args });
      if (servedPage) return new JsonText(`{"limit":${q.limit},"offset":${q.offset},"total":${total},"results":[${servedPage.join(',')}]}`);
      const results = await renderMempoolTxs(ctx.store, await mempoolRowsOf(ctx.store, page), { excludeFunctionArgs: q.exclude_function_args });
      return { limit: q.limit, offset: q.offset, total, results };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/tx/mempool/dropped',
    summary: 'Get dropped mempool transactions',
    tags: ['Transactions'],
    query: { type: 'object', properties: { offset: OFFSET, limit: limitParam(20, 50), exclude_function_args: BOOL_FALSE } },
    responses: { 200: MEMPOOL_TRANSACTION_LIST },
    handler: async (req, ctx) => {
      const q = paging(queryOf<{ offset: number; limit: number; exclude_function_args: boolean }>(req));
      const all = await droppedEntries(ctx.store);
      const page = all.slice(q.offset, q.offset + q.limit);
      const results = await renderMempoolTxs(ctx.store, await mempoolRowsOf(ctx.store, page), { excludeFunctionArgs: q.exclude_function_args });
      return { limit: q.limit, offset: q.offset, total: all.length, results };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/tx/mempool/stats',
    summary: 'Get statistics for mempool transactions',
    tags: ['Transactions'],
    responses: { 200: MEMPOOL_STATS },
    handler: async (_req, ctx) => {
      const [{ entries }, tip] = await Promise.all([pendingEntries(ctx.store, true), tipHeight(ctx.store)]);
      const heights = await receiptHeights(ctx.store, entries);
      const ofType = (t: string) => entries.filter((e) => e.type_id === t);
      const per = <T>(f: (list: MempoolEntry[]) => T) => Object.fromEntries(TX_TYPES_STATS.map((t) => [t, f(ofType(t))]));
      return {
        tx_type_counts: per((l) => l.length),
        tx_simple_fee_averages: per((l) => percentiles(l.map((e) => Number(e.fee_rate)))),
        // Age in blocks, counted from the next (unanchored) block as the reference does.
        tx_ages: per((l) => percentiles(l.map((e) => tip + 1 - (heights.get(e.tx_id) ?? 0)))),
        tx_byte_sizes: per((l) => percentiles(l.map((e) => e.tx_size))),
      };
    },
  },
  {
    method: 'get',
    path: '/extended/v2/mempool/fees',
    summary: 'Get mempool transaction fee priorities',
    tags: ['Mempool'],
    responses: { 200: MEMPOOL_FEES },
    handler: async (_req, ctx) => {
      const { entries } = await pendingEntries(ctx.store, true);
      const out: Record<string, unknown> = { all: priorities(entries.map((e) => Number(e.fee_rate))) };
      for (const t of ['token_transfer', 'contract_call', 'smart_contract']) {
        const fees = entries.filter((e) => e.type_id === t).map((e) => Number(e.fee_rate));
        if (fees.length) out[t] = priorities(fees);
      }
      return out;
    },
  },
];
