// Reads rows of a table keyed by string pairs, a chunk of pairs per query: the pairs travel as two
// array parameters ({a:Array(String)}, {b:Array(String)}), and with a ClickHouse server the
// parameters travel in the URL, so a batch's thousands of pairs are split.
import type { Store } from '../../storage/client.ts';

const LOOKUP_CHUNK = 2000;

/** `sql` selects rows `WHERE (k1, k2) IN arrayZip({a:Array(String)}, {b:Array(String)})`. */
export async function readByPairs<T>(store: Store, sql: string, pairs: ReadonlyArray<readonly [string, string]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < pairs.length; i += LOOKUP_CHUNK) {
    const chunk = pairs.slice(i, i + LOOKUP_CHUNK);
    const rs = await store.client.query({ query: sql, query_params: { a: chunk.map(([a]) => a), b: chunk.map(([, b]) => b) }, format: 'JSONEachRow' });
    out.push(...(await rs.json<T>()));
  }
  return out;
}
