// `npm run db-digest`: JSON with each table's row count and content hash in its logical state, to
// compare two stores (e.g. a crashed-and-resumed import against an uninterrupted one). Replacing
// tables are read with FINAL (newest version per key: how many rows collapsed already depends on
// insert sizes and merges, not on the data); summing tables by their folded sums, where a doubled
// insert shows.
import type { Store } from './client.ts';

const SUMMED: Record<string, string> = {
  balances: `SELECT principal, asset, sum(balance), sum(total_sent), sum(total_received), sum(total_fees_sent), sum(total_miner_rewards) FROM balances GROUP BY principal, asset`,
  // A key whose deltas cancel out may or may not have been merged away yet: it counts as absent.
  stx_supply: `SELECT block_height, sum(amount) AS a FROM stx_supply GROUP BY block_height HAVING a != 0`,
  running_counts: `SELECT name, key, sum(n) AS c FROM running_counts GROUP BY name, key HAVING c != 0`,
  ft_holders: `SELECT asset, principal, sum(balance), sum(touches) FROM ft_holders GROUP BY asset, principal`,
  analytics_by_bucket: `SELECT unit, kind, bucket, a, b, c, sum(n) AS n, sum(amount) AS m FROM analytics_by_bucket GROUP BY unit, kind, bucket, a, b, c HAVING n != 0 OR m != 0`,
  analytics_by_key: `SELECT unit, kind, a, bucket, b, c, sum(n) AS n, sum(amount) AS m FROM analytics_by_key GROUP BY unit, kind, a, bucket, b, c HAVING n != 0 OR m != 0`,
  // Which batch last wrote a pair depends on where batches were cut (an import resumed after a
  // crash cuts them elsewhere): only the count is content. A pair back at zero counts as absent.
  contract_callers: `SELECT contract_id, sender, argMax(calls, log_to) AS n FROM contract_callers GROUP BY contract_id, sender HAVING n != 0`,
  ft_holder_pairs: `SELECT asset, principal, argMax(balance, log_to) AS n FROM ft_holder_pairs GROUP BY asset, principal HAVING n != 0`,
};

export async function digestStore(store: Store): Promise<Record<string, { rows: number; hash: string }>> {
  const tables = await (
    await store.client.query({ query: `SELECT name, engine FROM system.tables WHERE database = currentDatabase() AND name != 'schema_migrations' AND engine LIKE '%MergeTree' ORDER BY name`, format: 'JSONEachRow' })
  ).json<{ name: string; engine: string }>();
  const out: Record<string, { rows: number; hash: string }> = {};
  for (const { name, engine } of tables) {
    const source = SUMMED[name] ?? `SELECT DISTINCT * FROM ${name}${engine.includes('Replacing') ? ' FINAL' : ''}`;
    const [r] = await (
      await store.client.query({ query: `SELECT count() AS rows, toString(sum(cityHash64(toString(tuple(*))))) AS hash FROM (${source})`, format: 'JSONEachRow' })
    ).json<{ rows: string; hash: string }>();
    out[name] = { rows: Number(r.rows), hash: r.hash };
  }
  return out;
}
