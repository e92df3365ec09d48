// For tests that set up stored state: inserts a RowSet's rows outside the processor's batches,
// one insert per target, each deduplicated by `${token}:${target}`.
import type { Store } from '../storage/client.ts';
import { nativeBlockOf, parseInsertTarget, type RowSet } from '../workers/rows.ts';

export async function insertRowSet(store: Store, rows: RowSet, token: string): Promise<void> {
  for (const [target, fragment] of Object.entries(rows.serialize())) {
    const { table, columns } = parseInsertTarget(target);
    await store.writers()[0].insertRows(table, columns, nativeBlockOf(target, [fragment]), `${token}:${target}`);
  }
}
