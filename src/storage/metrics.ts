// ClickHouse memory series: what the engine holds (its tracked total, and the mark and primary-index
// caches, which fill as parts are read). Embedded, this memory is the API process's own, so these
// are what an operator compares the process's resident memory with. Read from system.metrics at
// each scrape (one small query).
import { gauge } from '../metrics/registry.ts';
import type { Store } from './client.ts';

/** system.metrics names and the `kind` label each is shown under. */
const KINDS: Record<string, string> = {
  MemoryTracking: 'tracked',
  MergesMutationsMemoryTracking: 'merges',
  MarkCacheBytes: 'mark_cache',
  PrimaryIndexCacheBytes: 'primary_index_cache',
  UncompressedCacheBytes: 'uncompressed_cache',
};
const QUERY = `SELECT metric, toString(value) AS value FROM system.metrics WHERE metric IN (${Object.keys(KINDS).map((n) => `'${n}'`).join(', ')})`;

export function watchEngineMemory(store: Store): void {
  gauge({
    name: 'stacks_clickhouse_memory_bytes',
    help: 'ClickHouse memory, by kind: tracked (all the engine counts), merges, mark_cache, primary_index_cache, uncompressed_cache.',
    labelNames: ['kind'],
    async collect() {
      const rows = await store.read<{ metric: string; value: string }>(QUERY, {}).catch(() => []);
      for (const r of rows) this.set({ kind: KINDS[r.metric] }, Number(r.value));
    },
  });
}
