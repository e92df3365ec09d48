// Test support: reads every analytics answer the tests compare from a running service (the keys to
// ask about — contracts, tokens, principals — are listed through the SQL endpoint's views).
import assert from 'node:assert/strict';
import { networkOfPrincipal, type Network } from '../../stacks/buckets.ts';
import { CHAIN_METRICS } from './queries.ts';

/** The environment of the analytics tests' fed services (one fed store per fixture is shared). */
export const ANALYTICS_TEST_TOKEN = 'analytics-test-token-0123456789';
export const ANALYTICS_TEST_ENV = { STACKS_API_ANALYTICS_SQL_TOKEN: ANALYTICS_TEST_TOKEN };

export interface SeriesAnswer {
  from: number | null;
  to: number | null;
  results: Array<{ bucket: number; value: string; by_type?: Record<string, string>; avg_block_time?: number | null }>;
}
interface FlowSide {
  total_amount: string;
  transfers: string;
  counterparties: number;
  top: Array<{ principal: string; amount: string; transfers: string }>;
}
interface PrincipalSeries {
  from: number | null;
  to: number | null;
  results: Array<{ bucket: number; txs: string; fees: string; stx_received: string; stx_sent: string; balance: string; value?: string }>;
}

export function analyticsClient(apiUrl: string, token: string) {
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${apiUrl}/extended/analytics/v1${path}`);
    const body = await res.json();
    assert.equal(res.status, 200, `${path}: ${JSON.stringify(body)}`);
    return body as T;
  };
  const sql = async <T>(query: string): Promise<T[]> => {
    const res = await fetch(`${apiUrl}/extended/analytics/v1/sql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query }) });
    const body = (await res.json()) as { columns: Array<{ name: string }>; rows: unknown[][] };
    assert.equal(res.status, 200, `${query}: ${JSON.stringify(body)}`);
    return body.rows.map((r) => Object.fromEntries(body.columns.map((c, i) => [c.name, r[i]])) as T);
  };
  const enc = encodeURIComponent;

  async function collect() {
    const senders = await sql<{ s: string }>(`SELECT sender_address AS s FROM sql_txs WHERE sender_address != '' LIMIT 1`);
    const network: Network = networkOfPrincipal(senders[0]?.s ?? '') ?? 'mainnet';
    const chain: Record<string, SeriesAnswer> = {};
    for (const metric of CHAIN_METRICS) for (const unit of ['hour', 'day', 'cycle']) chain[`${metric}:${unit}`] = await get(`/chain/series?metric=${metric}&interval=${unit}`);
    const top: Record<string, SeriesAnswer & { results: Array<{ contract_id: string; value: string }> }> = {};
    for (const by of ['calls', 'fees', 'unique_callers', 'events']) top[by] = await get(`/contracts/top?by=${by}&limit=200`);
    const contracts: Record<string, Record<string, SeriesAnswer> & { functions: { results: unknown[] } }> = {};
    for (const { c } of await sql<{ c: string }>(`SELECT DISTINCT contract_id AS c FROM sql_txs WHERE type_id = 'contract_call' ORDER BY c LIMIT 12`)) {
      const entry = { functions: await get<{ results: unknown[] }>(`/contracts/${enc(c)}/functions?limit=200`) } as Record<string, SeriesAnswer> & { functions: { results: unknown[] } };
      for (const unit of ['day', 'cycle']) for (const metric of ['calls', 'callers', 'fees']) entry[`${metric}:${unit}`] = await get(`/contracts/${enc(c)}/series?metric=${metric}&interval=${unit}`);
      contracts[c] = entry;
    }
    type Distribution = { holders: number; total_supply: string; gini: number | null; top_holders: unknown[]; buckets: Array<{ min_balance: string; holders: number }> };
    const ft: Record<string, Record<string, SeriesAnswer> & { distribution: Distribution }> = {};
    const assets = await sql<{ a: string }>(`SELECT DISTINCT asset_identifier AS a FROM sql_ft_events ORDER BY a LIMIT 8`);
    for (const { a } of assets) {
      const entry = { distribution: await get<Distribution>(`/tokens/ft/${enc(a)}/distribution?limit=200`) } as Record<string, SeriesAnswer> & { distribution: Distribution };
      for (const unit of ['day', 'cycle']) for (const metric of ['transfers', 'volume', 'mints', 'burns', 'holders']) entry[`${metric}:${unit}`] = await get(`/tokens/ft/${enc(a)}/series?metric=${metric}&interval=${unit}`);
      ft[a] = entry;
    }
    const nft: Record<string, Record<string, SeriesAnswer>> = {};
    for (const { a } of await sql<{ a: string }>(`SELECT DISTINCT asset_identifier AS a FROM sql_nft_events ORDER BY a LIMIT 6`)) {
      nft[a] = {};
      for (const unit of ['day', 'cycle']) for (const metric of ['transfers', 'mints', 'burns']) nft[a][`${metric}:${unit}`] = await get(`/tokens/nft/${enc(a)}/series?metric=${metric}&interval=${unit}`);
    }
    const busiest = await sql<{ p: string }>(
      `SELECT p FROM (SELECT sender AS p FROM sql_stx_events WHERE asset_event_type = 'transfer' UNION ALL SELECT recipient FROM sql_stx_events WHERE asset_event_type = 'transfer'
         UNION ALL SELECT sender_address FROM sql_txs UNION ALL SELECT sender FROM sql_ft_events WHERE asset_event_type = 'transfer') WHERE p != '' GROUP BY p ORDER BY count() DESC, p LIMIT 6`,
    );
    const flows: Array<{ principal: string; asset: string; answer: { inbound: FlowSide; outbound: FlowSide } }> = [];
    const principals: Record<string, Record<string, PrincipalSeries>> = {};
    for (const { p } of busiest) {
      for (const asset of ['stx', ...assets.slice(0, 2).map((x) => x.a)]) flows.push({ principal: p, asset, answer: await get(`/principals/${enc(p)}/flows?asset=${enc(asset)}&limit=200`) });
      principals[p] = { day: await get(`/principals/${enc(p)}/series?interval=day`), cycle: await get(`/principals/${enc(p)}/series?interval=cycle`) };
    }
    const pox = await get<{ results: Array<{ cycle: number; stacked_amount: string | null; signers: number | null; stackers: number; btc_rewards: string; reward_recipients: number }> }>(`/pox/cycles`);
    return { network, chain, top, contracts, ft, nft, flows, principals, pox };
  }

  return { get, sql, collect };
}
