// Applies the versioned migrations in sql/ (NNNN_name.sql, in order), each once, at start-up.
// With a cluster configured the same files are rewritten to ON CLUSTER DDL with Replicated engines.
import { readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from './client.ts';
import { appliedMigrations, schemaLayout, SchemaLayoutError } from './schema-layout.ts';

export const SQL_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'sql');

export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

export function splitStatements(sql: string): string[] {
  const withoutComments = sql
    .split('\n')
    .map((line) => line.replace(/--.*$/, ''))
    .join('\n');
  return withoutComments
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function loadMigrations(dir = SQL_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f, statements: splitStatements(readFileSync(join(dir, f), 'utf8')) }));
}

/** Rewrites one DDL statement for a replicated cluster. */
export function toClusterDdl(statement: string, cluster: string): string {
  const altered = /^ALTER TABLE (\w+)\s/.exec(statement)?.[1];
  if (altered) return statement.replace(/^ALTER TABLE \w+\s/, `ALTER TABLE ${altered} ON CLUSTER \`${cluster}\` `);
  // Views (plain and materialized) are created on every replica.
  const view = /^CREATE (MATERIALIZED )?VIEW IF NOT EXISTS (\w+)/.exec(statement);
  if (view) return statement.replace(view[0], `${view[0]} ON CLUSTER \`${cluster}\``);
  const table = /CREATE TABLE IF NOT EXISTS (\w+)/.exec(statement)?.[1];
  if (!table) return statement;
  return statement
    .replace(`CREATE TABLE IF NOT EXISTS ${table}`, `CREATE TABLE IF NOT EXISTS ${table} ON CLUSTER \`${cluster}\``)
    .replace(/ENGINE = (Replacing|Summing|Aggregating)?MergeTree(\(([^)]*)\))?/, (_m, kind: string | undefined, _p, args: string | undefined) => {
      const zk = `'/clickhouse/tables/{shard}/{database}/${table}', '{replica}'`;
      return `ENGINE = Replicated${kind ?? ''}MergeTree(${args ? `${zk}, ${args}` : zk})`;
    })
    // The setting is for plain MergeTree only (replicated tables deduplicate by themselves).
    .replace(/SETTINGS\s+non_replicated_deduplication_window = \d+\s*(,\s*)?/, 'SETTINGS ')
    .replace(/,\s*non_replicated_deduplication_window = \d+/, '')
    .replace(/SETTINGS\s*$/, '');
}

/** The tables and views the migrations create (each a table of this project's, to drop on re-index). */
export function createdObjects(migrations: readonly Migration[]): string[] {
  const names = new Set<string>();
  for (const m of migrations) {
    for (const st of m.statements) {
      const created = /^CREATE (?:TABLE|VIEW|MATERIALIZED VIEW) IF NOT EXISTS (\w+)/.exec(st)?.[1];
      if (created) names.add(created);
    }
  }
  return [...names];
}

/** Applies the migrations the store has not recorded. A store whose schema_migrations names a file
 *  this version does not have (another data layout) gets SchemaLayoutError and nothing applied. */
export async function migrate(store: Store, migrations = loadMigrations()): Promise<number[]> {
  const onCluster = store.cluster ? ` ON CLUSTER \`${store.cluster}\`` : '';
  const engine = store.cluster
    ? `ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/schema_migrations', '{replica}')`
    : 'ReplacingMergeTree';
  await store.client.command({
    query: `CREATE TABLE IF NOT EXISTS schema_migrations${onCluster} (version UInt32, name String, applied_at DateTime DEFAULT now()) ENGINE = ${engine} ORDER BY version`,
  });
  const recorded = await appliedMigrations(store.client);
  const layout = schemaLayout(recorded, migrations.map((m) => m.name));
  if (layout.kind !== 'current') throw new SchemaLayoutError(layout);
  const done = new Set(recorded.map((r) => r.version));
  const applied: number[] = [];
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    for (const st of m.statements) {
      await store.client.command({ query: store.cluster ? toClusterDdl(st, store.cluster) : st });
    }
    await store.client.insert({ table: 'schema_migrations', values: [{ version: m.version, name: m.name }], format: 'JSONEachRow' });
    applied.push(m.version);
  }
  return applied;
}
