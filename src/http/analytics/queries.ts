// Reads of the analytics aggregates (sql/0007_analytics.sql). Every read sums the signed rows of its
// buckets (a reorg's rows sum to zero whether or not the engine merged them yet), so an answer costs
// a row per bucket and key, never a row per tx. The SQL is fixed text; only parameters vary.
import type { Store } from '../../storage/client.ts';
import { rows } from '../reads/query.ts';
import { networkOfPrincipal, type Network, type Unit } from '../../stacks/buckets.ts';
import type { Range } from './range.ts';

const BY_BUCKET = 'analytics_by_bucket';
const BY_KEY = 'analytics_by_key';

/** One bucket's value (a decimal string) and its extras. */
export interface Point {
  bucket: number;
  value: string;
  by_type?: Record<string, string>;
  avg_block_time?: number | null;
}

const rangeParams = (r: Range, extra: Record<string, unknown> = {}) => ({ u: r.unit, f: r.from, t: r.to, ...extra });
const IN_RANGE = `unit = {u:String} AND bucket BETWEEN {f:UInt32} AND {t:UInt32}`;

/**
 * Each unit holds every change of a kind, bucketed its own way. A total over a range that covers
 * all of a kind's buckets is therefore the total over every bucket of any unit, and reads the one
 * with the fewest rows: cycles (top contracts by calls: 5.6 ms against 13 ms by day on the 1M-tx
 * store).
 */
const overRange = (sql: string, whole: boolean) => (whole ? sql.replace(IN_RANGE, `unit = 'cycle'`) : sql);

/** The first and last bucket holding rows of a kind (of one key when `a` is given). */
export async function dataRange(store: Store, unit: Unit, kind: string, a?: string): Promise<{ first: number; last: number } | undefined> {
  const table = a === undefined ? BY_BUCKET : BY_KEY;
  const where = `unit = {u:String} AND kind = {k:String}${a === undefined ? '' : ' AND a = {a:String}'}`;
  const params = { u: unit, k: kind, a: a ?? '' };
  const [first, last] = await Promise.all([
    rows<{ bucket: number }>(store, `SELECT bucket FROM ${table} WHERE ${where} ORDER BY bucket LIMIT 1`, params),
    rows<{ bucket: number }>(store, `SELECT bucket FROM ${table} WHERE ${where} ORDER BY bucket DESC LIMIT 1`, params),
  ]);
  return first[0] && last[0] ? { first: Number(first[0].bucket), last: Number(last[0].bucket) } : undefined;
}

/** The first and last bucket holding rows of any of `kinds` for one key (one read of its rows). */
export async function keyDataRange(store: Store, unit: Unit, kinds: readonly string[], a: string): Promise<{ first: number; last: number } | undefined> {
  const [r] = await rows<{ lo: number; hi: number; n: string }>(
    store,
    `SELECT min(bucket) AS lo, max(bucket) AS hi, count() AS n FROM ${BY_KEY} WHERE unit = {u:String} AND kind IN {k:Array(String)} AND a = {a:String}`,
    { u: unit, k: kinds, a },
  );
  return r && Number(r.n) > 0 ? { first: Number(r.lo), last: Number(r.hi) } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Chain series

export const CHAIN_METRICS = ['txs', 'fees', 'active_senders', 'new_contracts', 'stx_transferred', 'blocks', 'microblock_txs', 'failed_txs'] as const;
export type ChainMetric = (typeof CHAIN_METRICS)[number];

/** The aggregate kind each metric reads. */
export const CHAIN_KIND: Record<ChainMetric, string> = {
  txs: 'tx',
  fees: 'tx',
  failed_txs: 'tx',
  microblock_txs: 'tx',
  active_senders: 'ptx',
  new_contracts: 'deploy',
  stx_transferred: 'stx_xfer',
  blocks: 'block',
};

/** Per metric: SELECT bucket, v (and extras) ... FROM the bucket table in range. */
const CHAIN_SQL: Record<ChainMetric, string> = {
  txs: `SELECT bucket, a AS type, toString(sum(n)) AS v FROM ${BY_BUCKET} WHERE kind = 'tx' AND ${IN_RANGE} GROUP BY bucket, a HAVING sum(n) != 0`,
  fees: `SELECT bucket, toString(sum(amount)) AS v FROM ${BY_BUCKET} WHERE kind = 'tx' AND ${IN_RANGE} GROUP BY bucket`,
  failed_txs: `SELECT bucket, toString(sum(n)) AS v FROM ${BY_BUCKET} WHERE kind = 'tx' AND ${IN_RANGE} AND b = 'failed' GROUP BY bucket`,
  microblock_txs: `SELECT bucket, toString(sum(n)) AS v FROM ${BY_BUCKET} WHERE kind = 'tx' AND ${IN_RANGE} AND c = 'micro' GROUP BY bucket`,
  // FINAL sums each (bucket, sender) key's signed rows, which the engine has mostly done already
  // in its merges: the senders need not be read back as strings (4.7 ms against 55 ms by day on
  // the merged 1M-tx store).
  active_senders: `SELECT bucket, toString(countIf(n > 0)) AS v FROM ${BY_BUCKET} FINAL WHERE kind = 'ptx' AND ${IN_RANGE} GROUP BY bucket`,
  new_contracts: `SELECT bucket, toString(sum(n)) AS v FROM ${BY_BUCKET} WHERE kind = 'deploy' AND ${IN_RANGE} GROUP BY bucket`,
  stx_transferred: `SELECT bucket, toString(sum(amount)) AS v FROM ${BY_BUCKET} WHERE kind = 'stx_xfer' AND ${IN_RANGE} GROUP BY bucket`,
  blocks: `SELECT bucket, toString(sum(n)) AS v, toString(sumIf(amount, b = '1')) AS gap, toString(sumIf(n, b = '1')) AS gaps FROM ${BY_BUCKET} WHERE kind = 'block' AND ${IN_RANGE} GROUP BY bucket`,
};

/** A metric's non-zero buckets in range (the caller fills the rest). */
export async function chainSeries(store: Store, metric: ChainMetric, r: Range): Promise<Map<number, Point>> {
  const list = await rows<{ bucket: number; v: string; type?: string; gap?: string; gaps?: string }>(store, CHAIN_SQL[metric], rangeParams(r));
  const out = new Map<number, Point>();
  for (const row of list) {
    const bucket = Number(row.bucket);
    if (metric === 'txs') {
      const p = out.get(bucket) ?? { bucket, value: '0', by_type: {} };
      p.value = (BigInt(p.value) + BigInt(row.v)).toString();
      p.by_type![row.type!] = row.v;
      out.set(bucket, p);
    } else if (metric === 'blocks') {
      const gaps = Number(row.gaps);
      out.set(bucket, { bucket, value: row.v, avg_block_time: gaps > 0 ? Number(row.gap) / gaps : null });
    } else out.set(bucket, { bucket, value: row.v });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Contracts

export const TOP_BY = ['calls', 'fees', 'unique_callers', 'events'] as const;
export type TopBy = (typeof TOP_BY)[number];

export const TOP_KIND: Record<TopBy, string> = { calls: 'call', fees: 'call', unique_callers: 'caller', events: 'cevents' };

const TOP_SQL: Record<TopBy, string> = {
  calls: `SELECT a AS contract_id, toString(sum(n)) AS value FROM ${BY_BUCKET} WHERE kind = 'call' AND ${IN_RANGE} GROUP BY a HAVING sum(n) != 0 ORDER BY sum(n) DESC, contract_id LIMIT {l:UInt32}`,
  fees: `SELECT a AS contract_id, toString(sum(amount)) AS value FROM ${BY_BUCKET} WHERE kind = 'call' AND ${IN_RANGE} GROUP BY a HAVING sum(n) != 0 ORDER BY sum(amount) DESC, contract_id LIMIT {l:UInt32}`,
  // A caller called in the range when one of its buckets' canonical counts (summed by FINAL) is
  // positive: none is negative.
  unique_callers: `SELECT a AS contract_id, toString(uniqExactIf(b, n > 0)) AS value FROM ${BY_BUCKET} FINAL WHERE kind = 'caller' AND ${IN_RANGE}
    GROUP BY a HAVING uniqExactIf(b, n > 0) > 0 ORDER BY uniqExactIf(b, n > 0) DESC, contract_id LIMIT {l:UInt32}`,
  events: `SELECT a AS contract_id, toString(sum(n)) AS value FROM ${BY_BUCKET} WHERE kind = 'cevents' AND ${IN_RANGE} GROUP BY a HAVING sum(n) != 0 ORDER BY sum(n) DESC, contract_id LIMIT {l:UInt32}`,
};

/** Over the whole history, each contract's distinct callers are counted at ingest (kind 'ucaller',
 *  src/ingest/processor/unique-callers.ts): a row per contract instead of one per bucket and caller. */
const TOP_UNIQUE_CALLERS_EVER = `SELECT a AS contract_id, toString(sum(n)) AS value FROM ${BY_BUCKET} WHERE unit = 'all' AND kind = 'ucaller'
  GROUP BY a HAVING sum(n) > 0 ORDER BY sum(n) DESC, contract_id LIMIT {l:UInt32}`;

/** `whole`: the range covers every bucket holding the kind's rows (see overRange). */
export async function topContracts(store: Store, by: TopBy, r: Range, limit: number, whole = false): Promise<Array<{ contract_id: string; value: string }>> {
  const sql = whole && by === 'unique_callers' ? TOP_UNIQUE_CALLERS_EVER : overRange(TOP_SQL[by], whole);
  return rows(store, sql, rangeParams(r, { l: limit }));
}

export const CONTRACT_METRICS = ['calls', 'callers', 'fees'] as const;
export type ContractMetric = (typeof CONTRACT_METRICS)[number];

const CONTRACT_SQL: Record<ContractMetric, string> = {
  calls: `SELECT bucket, toString(sum(n)) AS v FROM ${BY_KEY} WHERE kind = 'call' AND a = {a:String} AND ${IN_RANGE} GROUP BY bucket`,
  fees: `SELECT bucket, toString(sum(amount)) AS v FROM ${BY_KEY} WHERE kind = 'call' AND a = {a:String} AND ${IN_RANGE} GROUP BY bucket`,
  callers: `SELECT bucket, toString(countIf(n > 0)) AS v FROM ${BY_KEY} FINAL WHERE kind = 'caller' AND a = {a:String} AND ${IN_RANGE} GROUP BY bucket`,
};

async function keyedSeries(store: Store, sql: string, r: Range, params: Record<string, unknown>): Promise<Map<number, Point>> {
  const list = await rows<{ bucket: number; v: string }>(store, sql, rangeParams(r, params));
  return new Map(list.map((row) => [Number(row.bucket), { bucket: Number(row.bucket), value: row.v }]));
}

export function contractSeries(store: Store, contract: string, metric: ContractMetric, r: Range): Promise<Map<number, Point>> {
  return keyedSeries(store, CONTRACT_SQL[metric], r, { a: contract });
}

/** A contract's most-called functions in range. */
export async function contractFunctions(store: Store, contract: string, r: Range, limit: number): Promise<Array<{ function_name: string; calls: string; fees: string }>> {
  return rows(
    store,
    `SELECT b AS function_name, toString(sum(n)) AS calls, toString(sum(amount)) AS fees FROM ${BY_KEY} WHERE kind = 'call' AND a = {a:String} AND ${IN_RANGE}
     GROUP BY b HAVING sum(n) != 0 ORDER BY sum(n) DESC, function_name LIMIT {l:UInt32}`,
    rangeParams(r, { a: contract, l: limit }),
  );
}

// ---------------------------------------------------------------------------------------------
// Tokens

export const FT_METRICS = ['transfers', 'volume', 'mints', 'burns', 'holders'] as const;
export type FtMetric = (typeof FT_METRICS)[number];
export const NFT_METRICS = ['transfers', 'mints', 'burns'] as const;
export type NftMetric = (typeof NFT_METRICS)[number];

const EVENT_TYPE: Record<string, string> = { transfers: 'transfer', volume: 'transfer', mints: 'mint', burns: 'burn' };

export function tokenEventSeries(store: Store, kind: 'ft' | 'nft', asset: string, metric: Exclude<FtMetric, 'holders'>, r: Range): Promise<Map<number, Point>> {
  const value = metric === 'volume' ? 'sum(amount)' : 'sum(n)';
  const sql = `SELECT bucket, toString(${value}) AS v FROM ${BY_KEY} WHERE kind = {k:String} AND a = {a:String} AND b = {e:String} AND ${IN_RANGE} GROUP BY bucket`;
  return keyedSeries(store, sql, r, { k: kind, a: asset, e: EVENT_TYPE[metric] });
}

export const TOKEN_TOP_BY = ['transfers', 'volume'] as const;
export type TokenTopBy = (typeof TOKEN_TOP_BY)[number];

/** The fungible tokens with the most transfers (or transfer volume) in range. */
export async function topTokens(store: Store, by: TokenTopBy, r: Range, limit: number, whole = false): Promise<Array<{ asset: string; value: string }>> {
  const value = by === 'volume' ? 'sum(amount)' : 'sum(n)';
  const sql = `SELECT a AS asset, toString(${value}) AS value FROM ${BY_BUCKET} WHERE kind = 'ft' AND ${IN_RANGE} AND b = 'transfer'
     GROUP BY a HAVING sum(n) != 0 ORDER BY ${value} DESC, asset LIMIT {l:UInt32}`;
  return rows(store, overRange(sql, whole), rangeParams(r, { l: limit }));
}

/** Holders (principals with a positive balance) at the end of each bucket: the running sum of the
 *  ±1 'holders' rows kept at ingest (sql/0007), one row per bucket in which the count changed. */
export async function holderSeries(store: Store, asset: string, r: Range): Promise<Map<number, Point>> {
  const changes = await rows<{ bucket: number; v: string }>(
    store,
    `SELECT bucket, toString(sum(n)) AS v FROM ${BY_KEY}
     WHERE unit = {u:String} AND kind = 'holders' AND a = {a:String} AND bucket <= {t:UInt32}
     GROUP BY bucket HAVING sum(n) != 0 ORDER BY bucket`,
    rangeParams(r, { a: asset }),
  );
  return carried(changes, r);
}

/** Running totals of per-bucket changes, one point per bucket of the range that has a change or a
 *  non-zero total carried in (the caller carries it through empty buckets). */
function carried(changes: ReadonlyArray<{ bucket: number; v: string }>, r: Range): Map<number, Point> {
  let total = 0n;
  const out = new Map<number, Point>();
  for (const c of changes) {
    total += BigInt(c.v);
    const bucket = Number(c.bucket);
    if (bucket >= r.from) out.set(bucket, { bucket, value: total.toString() });
  }
  const before = changes.filter((c) => Number(c.bucket) < r.from).reduce((n, c) => n + BigInt(c.v), 0n);
  if (before !== 0n && !out.has(r.from)) out.set(r.from, { bucket: r.from, value: before.toString() });
  return out;
}

export interface Distribution {
  holders: number;
  total_supply: string;
  gini: number | null;
  top_holders: Array<{ principal: string; balance: string }>;
  buckets: Array<{ min_balance: string; max_balance: string; holders: number }>;
}

/** The most top holders a distribution lists (the query reads this many, the answer is sliced). */
export const DISTRIBUTION_LIMIT_MAX = 200;

const HOLDERS = `(SELECT principal, sum(balance) AS balance FROM ft_holders WHERE asset = {a:String} GROUP BY principal HAVING balance > 0)`;

/**
 * Current holders of an asset: the top ones, counts by balance decade and the Gini coefficient, in
 * one pass over the holders (summing an asset's balances is most of the cost: three queries over
 * them cost 2.4× this one on the 1M-tx store).
 */
export async function distribution(store: Store, asset: string, limit: number): Promise<Distribution> {
  const [r] = await rows<{ n: string; total: string; s: number; w: number; decades: Record<string, string>; top: Array<[string, string]> }>(
    store,
    `SELECT n, total, arraySum(xs) AS s, arraySum(arrayMap((x, i) -> x * i, xs, arrayEnumerate(xs))) AS w, decades, top FROM (
       SELECT count() AS n, toString(sum(balance)) AS total, arraySort(groupArray(toFloat64(balance))) AS xs,
              sumMap(map(length(toString(balance)) - 1, toUInt64(1))) AS decades,
              arrayMap(t -> (t.2, toString(-t.1)), groupArraySorted(${DISTRIBUTION_LIMIT_MAX})((-balance, principal))) AS top
       FROM ${HOLDERS})`,
    { a: asset },
  );
  const n = Number(r?.n ?? 0);
  const s = Number(r?.s ?? 0);
  const w = Number(r?.w ?? 0);
  const decades = Object.entries(r?.decades ?? {}).map(([d, count]) => ({ d: Number(d), n: Number(count) })).sort((x, y) => x.d - y.d);
  return {
    holders: n,
    total_supply: n === 0 ? '0' : r.total,
    // G = 2·Σ i·x_i / (n·Σ x) − (n + 1) / n, balances ascending, i from 1.
    gini: n === 0 || s === 0 ? null : (2 * w) / (n * s) - (n + 1) / n,
    top_holders: (r?.top ?? []).slice(0, limit).map(([principal, balance]) => ({ principal, balance })),
    buckets: decades.map((d) => ({ min_balance: (10n ** BigInt(d.d)).toString(), max_balance: (10n ** BigInt(d.d + 1) - 1n).toString(), holders: d.n })),
  };
}

// ---------------------------------------------------------------------------------------------
// Principals

export interface FlowSide {
  total_amount: string;
  transfers: string;
  counterparties: number;
  top: Array<{ principal: string; amount: string; transfers: string }>;
}

/** A principal's transfers of one asset in range, by counterparty, in and out. */
export async function principalFlows(store: Store, principal: string, asset: string, r: Range, limit: number): Promise<{ inbound: FlowSide; outbound: FlowSide }> {
  const params = rangeParams(r, { p: principal, s: asset, l: limit });
  // One pass: each counterparty's totals, then per direction the sums and the top ones (largest
  // amount first, then by principal). Two queries over the same rows cost twice the engine time.
  const sides = await rows<{ kind: string; transfers: string; amount: string; n: string; top: Array<[string, string, string]> }>(
    store,
    `SELECT kind, toString(sum(t)) AS transfers, toString(sum(m)) AS amount, count() AS n,
            arrayMap(x -> (x.1, toString(x.2), toString(x.3)), arraySlice(arraySort(x -> (-x.2, x.1), groupArray((principal, m, t))), 1, {l:UInt32})) AS top
     FROM (SELECT kind, c AS principal, sum(n) AS t, sum(amount) AS m FROM ${BY_KEY}
           WHERE kind IN ('flow_in', 'flow_out') AND a = {p:String} AND b = {s:String} AND ${IN_RANGE} GROUP BY kind, c HAVING t != 0)
     GROUP BY kind`,
    params,
  );
  const side = (kind: string): FlowSide => {
    const t = sides.find((x) => x.kind === kind);
    return {
      total_amount: t?.amount ?? '0',
      transfers: t?.transfers ?? '0',
      counterparties: Number(t?.n ?? 0),
      top: (t?.top ?? []).map(([p, amount, transfers]) => ({ principal: p, amount, transfers })),
    };
  };
  return { inbound: side('flow_in'), outbound: side('flow_out') };
}

export interface PrincipalPoint {
  bucket: number;
  txs: string;
  fees: string;
  stx_received: string;
  stx_sent: string;
  balance: string;
}

/** A principal's activity per bucket (txs sent, fees paid, STX in and out) and its STX balance at
 *  each bucket's end (from all of its balance changes up to `to`). */
export async function principalSeries(store: Store, principal: string, r: Range): Promise<Map<number, PrincipalPoint>> {
  // STX in and out come from 'pstx' (sql/0007): counterparties summed at ingest.
  const list = await rows<{ bucket: number; k: string; tn: string; ta: string }>(
    store,
    `SELECT bucket, if(kind = 'pstx', concat('pstx_', b), kind) AS k, toString(sum(n)) AS tn, toString(sum(amount)) AS ta FROM ${BY_KEY}
     WHERE unit = {u:String} AND kind IN ('ptx', 'pstx', 'pbal') AND a = {p:String} AND bucket <= {t:UInt32}
       AND (kind = 'pbal' OR bucket >= {f:UInt32})
     GROUP BY bucket, k ORDER BY bucket`,
    rangeParams(r, { p: principal }),
  );
  const out = new Map<number, PrincipalPoint>();
  let balance = 0n;
  const at = (bucket: number) => {
    let p = out.get(bucket);
    if (!p) out.set(bucket, (p = { bucket, txs: '0', fees: '0', stx_received: '0', stx_sent: '0', balance: '0' }));
    return p;
  };
  for (const row of list) {
    const bucket = Number(row.bucket);
    if (row.k === 'pbal') balance += BigInt(row.ta);
    if (bucket < r.from) continue;
    const p = at(bucket);
    if (row.k === 'ptx') Object.assign(p, { txs: row.tn, fees: row.ta });
    else if (row.k === 'pstx_in') p.stx_received = row.ta;
    else if (row.k === 'pstx_out') p.stx_sent = row.ta;
    p.balance = balance.toString();
  }
  // The balance carried into the range.
  const before = list.filter((x) => x.k === 'pbal' && Number(x.bucket) < r.from).reduce((n, x) => n + BigInt(x.ta), 0n);
  if (!out.has(r.from) && before !== 0n) at(r.from).balance = before.toString();
  return out;
}

// ---------------------------------------------------------------------------------------------
// PoX

const networks = new WeakMap<Store, Network>();

/** The stored chain's network, as the processor tells it for cycle buckets: by its txs' senders. */
export async function storedNetwork(store: Store, fallback: () => Promise<Network>): Promise<Network> {
  const known = networks.get(store);
  if (known) return known;
  const [tx] = await rows<{ s: string }>(store, `SELECT sender_address AS s FROM txs WHERE sender_address != '' LIMIT 1`);
  const network = (tx && networkOfPrincipal(tx.s)) || (await fallback());
  if (tx) networks.set(store, network);
  return network;
}

export interface CycleRow {
  cycle: number;
  stacked_amount: string | null;
  signers: number | null;
  stackers: number;
  btc_rewards: string;
  reward_recipients: number;
}

/** PoX operations whose lock covers cycles [start-cycle-id, end-cycle-id). */
const LOCKING_OPS = ['stack-stx', 'stack-extend', 'stack-increase', 'delegate-stack-stx', 'delegate-stack-extend', 'delegate-stack-increase'];

const NO_SET_INDEX = 'SETTINGS use_index_for_in_with_subqueries = 0';

/** Burn blocks that a later one at the same height replaced (a burn-chain fork; few or none): at
 *  each height the canonical burn block is the one received last. */
export async function supersededBurnBlocks(store: Store): Promise<SupersededBurnBlocks> {
  const list = await rows<{ h: number; x: string }>(
    store,
    `SELECT b.burn_block_height AS h, b.burn_block_hash AS x
     FROM (SELECT burn_block_height, burn_block_hash, max(log_id) AS l FROM burn_blocks GROUP BY burn_block_height, burn_block_hash) AS b
     WHERE (b.burn_block_height, b.l) NOT IN (SELECT burn_block_height, max(log_id) FROM burn_blocks GROUP BY burn_block_height)`,
  );
  return { heights: list.map((r) => Number(r.h)), hashes: list.map((r) => r.x) };
}

export interface SupersededBurnBlocks {
  heights: number[];
  hashes: string[];
}

/** Blocks the PoX tables name that are not canonical now (forks: few or none), read once per data
 *  version by the route. Filtering by them spares each answer's reads a FINAL pass over every
 *  block's canonical status: 9-13 ms of engine time per read on the 1M-tx store, against ~2. Held
 *  blocks (no canonical status yet) are among them. */
export async function nonCanonicalPoxBlocks(store: Store): Promise<string[]> {
  const list = await rows<{ h: string }>(
    store,
    `SELECT DISTINCT index_block_hash AS h FROM (SELECT index_block_hash FROM pox_cycles UNION ALL SELECT index_block_hash FROM pox_events)
     WHERE index_block_hash NOT IN (SELECT index_block_hash FROM block_canonical FINAL WHERE canonical = 1)`,
  );
  return list.map((r) => r.h);
}

/**
 * Per reward cycle in [from, to]: the canonical reward set's stacked amount and signers (Nakamoto
 * cycles), the stackers whose canonical lock covers it, and the BTC (satoshis) paid to reward
 * addresses by the canonical burn blocks of its burn heights.
 *
 * `superseded` (supersededBurnBlocks) and `notCanonical` (nonCanonicalPoxBlocks) are kept per data
 * version by the route, so an answer does not group every burn block (the reward read 4.2 ms against
 * 6.2-9.6) nor read every block's canonical status. While the batch that brings a burn fork or a
 * Stacks fork is being stored, an answer may count its rows (a burn fork's payouts could also be
 * counted at neither block, as burn_blocks and burn_rewards land separately); the batch's commit
 * moves the data version and the answer is exact again.
 */
export async function poxCycles(store: Store, from: number, to: number, pox: { first: number; length: number }, superseded: SupersededBurnBlocks, notCanonical: string[]): Promise<CycleRow[]> {
  // FINAL drops a redelivered reward's repeated row (the table's key is its identity): half the cost
  // of LIMIT 1 BY over the same keys. Repeated reward-set and lock rows change neither any() nor
  // uniqExact(), so those reads skip it. The burn heights never narrow the reward read's key range
  // much, so the engine is told not to weigh the superseded set against the index (6.7 ms against 8.9).
  const p = { f: from, t: to, first: pox.first, len: pox.length, ops: LOCKING_OPS, sh: superseded.heights, sx: superseded.hashes, nc: notCanonical };
  const [sets, stackers, rewards] = await Promise.all([
    rows<{ cycle: number; stacked: string; signers: number }>(
      store,
      `SELECT cycle_number AS cycle, toString(any(total_stacked_amount)) AS stacked, any(total_signers) AS signers FROM pox_cycles
       WHERE cycle_number BETWEEN {f:UInt32} AND {t:UInt32} AND index_block_hash NOT IN {nc:Array(String)}
       GROUP BY cycle_number`,
      p,
    ),
    rows<{ cycle: number; n: string }>(
      store,
      `SELECT cycle, uniqExact(stacker) AS n FROM (
         SELECT stacker, arrayJoin(range(toUInt32(greatest(start_cycle_id, {f:UInt32})), toUInt32(least(end_cycle_id, toUInt64({t:UInt32}) + 1)))) AS cycle
         FROM pox_events
         WHERE name IN {ops:Array(String)} AND end_cycle_id > start_cycle_id AND end_cycle_id > {f:UInt32} AND start_cycle_id <= {t:UInt32}
           AND index_block_hash NOT IN {nc:Array(String)})
       GROUP BY cycle`,
      p,
    ),
    rows<{ cycle: number; sats: string; n: string }>(
      store,
      `SELECT intDiv(toInt64(burn_block_height) - {first:Int64}, {len:Int64}) AS cycle, toString(sum(reward_amount)) AS sats, uniqExact(reward_recipient) AS n
       FROM burn_rewards FINAL
       WHERE burn_block_height >= {first:Int64} + {f:UInt32} * {len:Int64} AND burn_block_height < {first:Int64} + ({t:UInt32} + 1) * {len:Int64}
         AND (burn_block_height, burn_block_hash) NOT IN arrayZip({sh:Array(UInt32)}, {sx:Array(String)})
       GROUP BY cycle ${NO_SET_INDEX}`,
      p,
    ),
  ]);
  const out = new Map<number, CycleRow>();
  const at = (cycle: number) => {
    let r = out.get(cycle);
    if (!r) out.set(cycle, (r = { cycle, stacked_amount: null, signers: null, stackers: 0, btc_rewards: '0', reward_recipients: 0 }));
    return r;
  };
  for (const s of sets) Object.assign(at(Number(s.cycle)), { stacked_amount: s.stacked, signers: Number(s.signers) });
  for (const s of stackers) at(Number(s.cycle)).stackers = Number(s.n);
  for (const s of rewards) Object.assign(at(Number(s.cycle)), { btc_rewards: s.sats, reward_recipients: Number(s.n) });
  return [...out.values()].sort((a, b) => a.cycle - b.cycle);
}

/** The lowest and highest cycle any PoX data names (reward sets, locks, reward payouts). */
export async function poxCycleRange(store: Store, pox: { first: number; length: number }): Promise<{ first: number; last: number } | undefined> {
  const [r] = await rows<{ lo: string; hi: string; n: string }>(
    store,
    `SELECT toString(min(c)) AS lo, toString(max(c)) AS hi, count() AS n FROM (
       SELECT cycle_number AS c FROM pox_cycles
       UNION ALL SELECT toUInt32(start_cycle_id) FROM pox_events WHERE start_cycle_id > 0
       UNION ALL SELECT toUInt32(end_cycle_id - 1) FROM pox_events WHERE end_cycle_id > 0
       UNION ALL SELECT toUInt32(intDiv(burn_block_height - {first:Int64}, {len:Int64})) FROM burn_rewards WHERE burn_block_height >= {first:Int64})`,
    { first: pox.first, len: pox.length },
  );
  return r && Number(r.n) > 0 ? { first: Number(r.lo), last: Number(r.hi) } : undefined;
}
