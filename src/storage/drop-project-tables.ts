// Drops this project's tables and views from a ClickHouse server database before it is re-indexed:
// those any layout-1 migration or a current one creates, and schema_migrations — never any other
// table the database holds (it may be shared with other applications).
import type { Store } from './client.ts';
import { LAYOUT_1_OBJECTS } from './layout-1.ts';
import { createdObjects, loadMigrations } from './migrate.ts';

/** The names this project creates, in any layout (a stopped re-index may have made current ones). */
export function projectObjects(): Set<string> {
  return new Set([...LAYOUT_1_OBJECTS, ...createdObjects(loadMigrations())]);
}

/**
 * Views first (a materialized view writes into a table), then tables, schema_migrations last: a
 * drop stopped part-way still shows the old layout to every process that checks it. Returns the
 * names dropped.
 */
export async function dropProjectTables(store: Store): Promise<string[]> {
  const ours = projectObjects();
  const present = await (
    await store.client.query({ query: `SELECT name, engine FROM system.tables WHERE database = currentDatabase() AND NOT is_temporary`, format: 'JSONEachRow' })
  ).json<{ name: string; engine: string }>();
  const views = present.filter((t) => ours.has(t.name) && t.engine.endsWith('View'));
  const tables = present.filter((t) => ours.has(t.name) && !t.engine.endsWith('View'));
  const migrations = present.filter((t) => t.name === 'schema_migrations');
  const onCluster = store.cluster ? ` ON CLUSTER \`${store.cluster}\`` : '';
  const dropped: string[] = [];
  for (const t of [...views, ...tables, ...migrations]) {
    // SYNC: a replicated table's path is free again when this returns, for the table recreated next.
    await store.client.command({ query: `DROP ${t.engine.endsWith('View') ? 'VIEW' : 'TABLE'} IF EXISTS \`${t.name}\`${onCluster} SYNC` });
    dropped.push(t.name);
  }
  return dropped;
}
