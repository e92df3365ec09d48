// Per-pair values kept across batches (contract_callers, ft_holder_pairs: a pair's running value and
// `log_to`, the last log entry of the batch that wrote it), read by key once per batch. The pairs
// travel as two array parameters, and with a ClickHouse server the parameters travel in the URL, so
// a batch's thousands of pairs are split.
import type { Store } from '../../storage/client.ts';

const LOOKUP_CHUNK = 2000;

/** A pair table: its two key columns and its value column. */
export interface PairTable {
  table: string;
  keys: readonly [string, string];
  value: string;
}

/**
 * Each pair's value before this batch (0 for a pair without a row), in the order of `nets`, which
 * holds each pair once with the batch's net change. Inserts run one batch at a time in order, so the
 * stored values are the earlier batches'; a row this batch wrote itself (an attempt that crashed
 * before the batch was committed, marked with `logTo`) has the batch's net change taken back out,
 * so a redo starts where the first attempt did and writes the same rows.
 */
export async function valuesBeforeBatch(store: Store, t: PairTable, nets: ReadonlyArray<readonly [string, string, bigint]>, logTo: number): Promise<bigint[]> {
  const [k1, k2] = t.keys;
  const sql = `SELECT ${k1} AS a, ${k2} AS b, toString(argMax(${t.value}, log_to)) AS v, toString(max(log_to)) AS at FROM ${t.table}
     WHERE (${k1}, ${k2}) IN arrayZip({a:Array(String)}, {b:Array(String)}) GROUP BY ${k1}, ${k2}`;
  const stored = new Map<string, { v: bigint; at: number }>();
  for (let i = 0; i < nets.length; i += LOOKUP_CHUNK) {
    const chunk = nets.slice(i, i + LOOKUP_CHUNK);
    const rs = await store.client.query({ query: sql, query_params: { a: chunk.map(([a]) => a), b: chunk.map(([, b]) => b) }, format: 'JSONEachRow' });
    for (const r of await rs.json<{ a: string; b: string; v: string; at: string }>()) stored.set(`${r.a}\n${r.b}`, { v: BigInt(r.v), at: Number(r.at) });
  }
  return nets.map(([a, b, net]) => {
    const s = stored.get(`${a}\n${b}`);
    return s === undefined ? 0n : s.at === logTo ? s.v - net : s.v;
  });
}
