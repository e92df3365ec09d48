// The engine's own counts of what it inserted and merged (system.events), read before and after a
// run so their difference is the run's: how many times a row was rewritten by merges is what the
// part sizing of a catch-up is judged by (issue 32). A server's counters are its whole uptime's and
// shared with every client, so only an embedded store's difference is this run's alone. chdb counts
// a merge that OPTIMIZE runs twice (a background merge once), so a run reads them before its own
// OPTIMIZE.
import type { Store } from './client.ts';

/** The counters read (absent ones read as 0: a build without one). */
export const ENGINE_COUNTERS = ['InsertedRows', 'InsertedBytes', 'MergedRows', 'MergedUncompressedBytes', 'MergeTotalMilliseconds', 'Merge'] as const;
export type EngineCounters = Record<(typeof ENGINE_COUNTERS)[number], number>;

export async function readEngineCounters(store: Store): Promise<EngineCounters> {
  const rs = await store.client.query({
    query: 'SELECT event, value FROM system.events WHERE event IN {names:Array(String)}',
    query_params: { names: [...ENGINE_COUNTERS] },
    format: 'JSONEachRow',
  });
  const found = new Map((await rs.json<{ event: string; value: string }>()).map((r) => [r.event, Number(r.value)]));
  return Object.fromEntries(ENGINE_COUNTERS.map((n) => [n, found.get(n) ?? 0])) as EngineCounters;
}

/** `after - before`, counter by counter. */
export function countersSince(before: EngineCounters, after: EngineCounters): EngineCounters {
  return Object.fromEntries(ENGINE_COUNTERS.map((n) => [n, after[n] - before[n]])) as EngineCounters;
}

/** One line: rows inserted and merged, and how many times a row was merged on average. */
export function describeCounters(c: EngineCounters): string {
  const rewrites = c.InsertedRows > 0 ? c.MergedRows / c.InsertedRows : 0;
  return `engine: ${c.InsertedRows.toLocaleString('en-US')} rows inserted (${(c.InsertedBytes / 2 ** 20).toFixed(0)} MiB), ${c.Merge.toLocaleString('en-US')} merges of ${c.MergedRows.toLocaleString('en-US')} rows (${rewrites.toFixed(2)} a row inserted, ${(c.MergedUncompressedBytes / 2 ** 20).toFixed(0)} MiB), ${(c.MergeTotalMilliseconds / 1000).toFixed(1)} s merging`;
}
