// Test helper: a data directory of the earlier layout ("layout 1") as far as both of its signals go
// (src/ingest/data-layout.ts, src/storage/schema-layout.ts): an event log and stores without a
// layout marker, and a schema_migrations that records layout 1's migration files.
import { rmSync } from 'node:fs';
import type { Store } from '../storage/client.ts';
import { LAYOUT_1_MIGRATIONS } from '../storage/layout-1.ts';
import { layoutMarkerFile } from '../ingest/data-layout.ts';
import { withStore } from './store.ts';

/** schema_migrations as a layout 1 store has it: versions 1-9, 20-27, 30, 50-54, 60 by their old names. */
export async function writeLayout1Migrations(store: Store): Promise<void> {
  await store.client.command({ query: 'CREATE TABLE IF NOT EXISTS schema_migrations (version UInt32, name String, applied_at DateTime DEFAULT now()) ENGINE = ReplacingMergeTree ORDER BY version' });
  await store.client.command({ query: 'TRUNCATE TABLE schema_migrations' });
  await store.client.insert({ table: 'schema_migrations', values: LAYOUT_1_MIGRATIONS.map((name) => ({ version: Number(name.slice(0, 4)), name })), format: 'JSONEachRow' });
}

/** Turns a (stopped) data directory this version made into a layout 1 one: the marker goes, and its
 *  embedded store records the old migrations. The event log, checkpoint and serving store stay. */
export async function makeLayout1Dir(dataDir: string): Promise<void> {
  rmSync(layoutMarkerFile(dataDir));
  await withStore(dataDir, writeLayout1Migrations);
}
