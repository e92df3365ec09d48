// /extended/analytics/v1: aggregates over the canonical chain's full history, read from the
// materialized aggregates (sql/0007_analytics.sql, queries.ts). Series list every bucket of the
// range asked (an empty one as 0; holders and balances carry over).
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import type { ApiRequest } from '../request.ts';
import { chainIsMainnet } from '../reads/network.ts';
import { POX_PARAMS, type Unit } from '../../stacks/buckets.ts';
import { bucketStart, bucketsOf, resolveRange, type Range } from './range.ts';
import * as Q from './queries.ts';
import { memoBounds, memoPerVersion } from './bounds-memo.ts';
import * as S from './schemas.ts';

export const ANALYTICS_PREFIX = '/extended/analytics/v1';
const TAGS = ['Analytics'];

type Query = { metric?: string; interval?: Unit; from?: unknown; to?: unknown; limit?: number; by?: string; asset?: string };

/** Every bucket of the range: its point, or 0 (or the last value, for running totals). */
function dense(points: Map<number, Q.Point>, r: Range | undefined, carry = false): Array<Q.Point & { start: string | null }> {
  if (!r) return [];
  let last = '0';
  return bucketsOf(r).map((bucket) => {
    const p = points.get(bucket);
    if (p) last = p.value;
    return { ...(p ?? { bucket, value: carry ? last : '0' }), bucket, start: bucketStart(r.unit, bucket) };
  });
}

const series = (metric: string, r: Range | undefined, unit: Unit, results: unknown[]) => ({ metric, interval: unit, from: r?.from ?? null, to: r?.to ?? null, results });

/** A series answer: the range asked (or the data's), its points, every bucket filled. */
async function seriesAnswer(metric: string, q: Query, dataRange: (unit: Unit) => ReturnType<typeof Q.dataRange>, points: (r: Range) => Promise<Map<number, Q.Point>>, carry = false) {
  const unit = q.interval ?? 'day';
  const r = await resolveRange(unit, q, () => dataRange(unit));
  return series(metric, r, unit, dense(r ? await points(r) : new Map(), r, carry));
}

// The data's first and last bucket, kept while no chain data is stored (bounds-memo.ts).
const dataRange = (ctx: ApiContext, unit: Unit, kind: string, a?: string) => memoBounds(ctx.dataVersion?.(), `${unit}\0${kind}\0${a ?? ''}`, () => Q.dataRange(ctx.store, unit, kind, a));
const keyDataRange = (ctx: ApiContext, unit: Unit, kinds: readonly string[], a: string) =>
  memoBounds(ctx.dataVersion?.(), `${unit}\0${kinds.join(',')}\0${a}\0key`, () => Q.keyDataRange(ctx.store, unit, kinds, a));

/** True when the range covers every day bucket holding the kind's rows (an answer may then read
 *  any unit: queries.ts, overRange). */
async function coversHistory(ctx: ApiContext, kind: string, r: Range): Promise<boolean> {
  const data = await dataRange(ctx, 'day', kind);
  return !!data && r.from <= data.first && r.to >= data.last;
}

/** An analytics GET route: the family's prefix and tag. */
const route = (path: string, def: Omit<RouteDef<ApiContext>, 'method' | 'path' | 'tags'>): RouteDef<ApiContext> => ({ method: 'get', path: `${ANALYTICS_PREFIX}${path}`, tags: TAGS, ...def });

export const analyticsRoutes: RouteDef<ApiContext>[] = [
  route('/chain/series', {
    summary: 'Chain-wide series: txs (by type), fees, active senders, new contracts, STX transferred, blocks and block time, microblock txs, failed txs',
    query: S.CHAIN_SERIES_QUERY,
    responses: { 200: S.SERIES },
    handler: async (req, ctx) => {
      const q = queryOf<Query>(req);
      const metric = q.metric as Q.ChainMetric;
      const unit = q.interval ?? 'day';
      const r = await resolveRange(unit, q, () => dataRange(ctx, unit, Q.CHAIN_KIND[metric]));
      const points = r ? await Q.chainSeries(ctx.store, metric, r) : new Map();
      const filled = dense(points, r).map((p) => (metric === 'txs' ? { ...p, by_type: p.by_type ?? {} } : metric === 'blocks' ? { ...p, avg_block_time: p.avg_block_time ?? null } : p));
      return series(metric, r, unit, filled);
    },
  }),
  route('/contracts/top', {
    summary: 'Top contracts in a day range by calls, fees, unique callers or print events',
    query: S.TOP_CONTRACTS_QUERY,
    responses: { 200: S.TOP_CONTRACTS },
    handler: async (req, ctx) => {
      const q = queryOf<Query>(req);
      const by = (q.by ?? 'calls') as Q.TopBy;
      const r = await resolveRange('day', q, () => dataRange(ctx, 'day', Q.TOP_KIND[by]));
      return { by, from: r?.from ?? null, to: r?.to ?? null, results: r ? await Q.topContracts(ctx.store, by, r, q.limit ?? 20, await coversHistory(ctx, Q.TOP_KIND[by], r)) : [] };
    },
  }),
  route('/contracts/:contract_id/series', {
    summary: "A contract's calls, unique callers or fees over time",
    params: S.CONTRACT_PARAMS,
    query: S.CONTRACT_SERIES_QUERY,
    responses: { 200: S.SERIES },
    handler: async (req, ctx) => {
      const q = queryOf<Query>(req);
      const metric = (q.metric ?? 'calls') as Q.ContractMetric;
      const id = req.params.contract_id;
      return seriesAnswer(metric, q, (unit) => dataRange(ctx, unit, metric === 'callers' ? 'caller' : 'call', id), (r) => Q.contractSeries(ctx.store, id, metric, r));
    },
  }),
  route('/contracts/:contract_id/functions', {
    summary: "A contract's most-called functions in a day range",
    params: S.CONTRACT_PARAMS,
    query: S.CONTRACT_FUNCTIONS_QUERY,
    responses: { 200: S.CONTRACT_FUNCTIONS },
    handler: async (req, ctx) => {
      const q = queryOf<Query>(req);
      const id = req.params.contract_id;
      const r = await resolveRange('day', q, () => dataRange(ctx, 'day', 'call', id));
      return { contract_id: id, from: r?.from ?? null, to: r?.to ?? null, results: r ? await Q.contractFunctions(ctx.store, id, r, q.limit ?? 20) : [] };
    },
  }),
  route('/tokens/ft/:asset/series', {
    summary: "A fungible token's transfers, volume, mints, burns or holders over time",
    params: S.ASSET_PARAMS,
    query: S.FT_SERIES_QUERY,
    responses: { 200: S.SERIES },
    handler: async (req, ctx) => {
      const q = queryOf<Query>(req);
      const metric = (q.metric ?? 'transfers') as Q.FtMetric;
      const asset = req.params.asset;
      const holders = metric === 'holders';
      return seriesAnswer(metric, q, (unit) => dataRange(ctx, unit, holders ? 'hold' : 'ft', asset), (r) => (holders ? Q.holderSeries(ctx.store, asset, r) : Q.tokenEventSeries(ctx.store, 'ft', asset, metric, r)), holders);
    },
  }),
  route('/tokens/ft/top', {
    summary: 'Top fungible tokens in a day range by transfers or transfer volume',
    query: S.TOP_TOKENS_QUERY,
    responses: { 200: S.TOP_TOKENS },
    handler: async (req, ctx) => {
      const q = queryOf<Query & { by?: Q.TokenTopBy }>(req);
      const by = (q.by ?? 'transfers') as Q.TokenTopBy;
      const r = await resolveRange('day', q, () => dataRange(ctx, 'day', 'ft'));
      return { by, from: r?.from ?? null, to: r?.to ?? null, results: r ? await Q.topTokens(ctx.store, by, r, q.limit ?? 20, await coversHistory(ctx, 'ft', r)) : [] };
    },
  }),
  route('/tokens/ft/:asset/distribution', {
    summary: "A fungible token's current holders: top holders, holders per balance decade, Gini coefficient",
    params: S.ASSET_PARAMS,
    query: S.DISTRIBUTION_QUERY,
    responses: { 200: S.FT_DISTRIBUTION },
    handler: async (req, ctx) => ({ asset: req.params.asset, ...(await Q.distribution(ctx.store, req.params.asset, queryOf<Query>(req).limit ?? 20)) }),
  }),
  route('/tokens/nft/:asset/series', {
    summary: "A non-fungible token's transfers, mints or burns over time",
    params: S.ASSET_PARAMS,
    query: S.NFT_SERIES_QUERY,
    responses: { 200: S.SERIES },
    handler: async (req, ctx) => {
      const q = queryOf<Query>(req);
      const metric = (q.metric ?? 'transfers') as Q.NftMetric;
      const asset = req.params.asset;
      return seriesAnswer(metric, q, (unit) => dataRange(ctx, unit, 'nft', asset), (r) => Q.tokenEventSeries(ctx.store, 'nft', asset, metric, r));
    },
  }),
  route('/principals/:principal/flows', {
    summary: "A principal's top counterparties in and out for STX or a fungible token in a day range, with totals",
    params: S.PRINCIPAL_PARAMS,
    query: S.FLOWS_QUERY,
    responses: { 200: S.PRINCIPAL_FLOWS },
    handler: async (req, ctx) => {
      const q = queryOf<Query>(req);
      const p = req.params.principal;
      const asset = q.asset ?? 'stx';
      const r = await resolveRange('day', q, () => keyDataRange(ctx, 'day', ['flow_in', 'flow_out'], p));
      const empty = { total_amount: '0', transfers: '0', counterparties: 0, top: [] };
      const flows = r ? await Q.principalFlows(ctx.store, p, asset, r, q.limit ?? 20) : { inbound: empty, outbound: empty };
      return { principal: p, asset, from: r?.from ?? null, to: r?.to ?? null, ...flows };
    },
  }),
  route('/principals/:principal/series', {
    summary: "A principal's activity (txs sent, fees, STX in and out) and STX balance over time",
    params: S.PRINCIPAL_PARAMS,
    query: S.PRINCIPAL_SERIES_QUERY,
    responses: { 200: S.PRINCIPAL_SERIES },
    handler: async (req, ctx) => principalSeriesAnswer(req, ctx),
  }),
  route('/pox/cycles', {
    summary: 'Per PoX reward cycle: stacked amount, signers, stackers and BTC rewards',
    query: S.POX_CYCLES_QUERY,
    responses: { 200: S.POX_CYCLES },
    handler: async (req, ctx) => {
      const q = queryOf<{ from?: number; to?: number }>(req);
      const p = POX_PARAMS[await Q.storedNetwork(ctx.store, async () => ((await chainIsMainnet(ctx)) ? 'mainnet' : 'testnet'))];
      const pox = { first: p.firstBurnHeight, length: p.cycleLength };
      const r = await resolveRange('cycle', q, () => memoBounds(ctx.dataVersion?.(), `pox\0${pox.first}\0${pox.length}`, () => Q.poxCycleRange(ctx.store, pox)));
      if (!r) return { results: [] };
      const version = ctx.dataVersion?.();
      const [superseded, notCanonical] = await Promise.all([
        memoPerVersion(version, 'superseded burn blocks', () => Q.supersededBurnBlocks(ctx.store)),
        memoPerVersion(version, 'non-canonical PoX blocks', () => Q.nonCanonicalPoxBlocks(ctx.store)),
      ]);
      return { results: await Q.poxCycles(ctx.store, r.from, r.to, pox, superseded, notCanonical) };
    },
  }),
];

async function principalSeriesAnswer(req: ApiRequest, ctx: ApiContext) {
  const q = queryOf<Query>(req);
  const unit = q.interval ?? 'day';
  const p = req.params.principal;
  const r = await resolveRange(unit, q, () => keyDataRange(ctx, unit, ['ptx', 'pbal', 'flow_in', 'flow_out'], p));
  const points = r ? await Q.principalSeries(ctx.store, p, r) : new Map<number, Q.PrincipalPoint>();
  let balance = '0';
  const results = r
    ? bucketsOf(r).map((bucket) => {
        const point = points.get(bucket);
        if (point) balance = point.balance;
        return { ...(point ?? { bucket, txs: '0', fees: '0', stx_received: '0', stx_sent: '0' }), balance, bucket, start: bucketStart(unit, bucket) };
      })
    : [];
  return { principal: p, interval: unit, from: r?.from ?? null, to: r?.to ?? null, results };
}
