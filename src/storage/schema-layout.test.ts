// The second signal of an earlier layout — schema_migrations naming files this version does not
// have — on a real embedded engine: migrate() refuses such a store, and a re-index's drop removes
// this project's tables and views of any layout and nothing else in the database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { openStore, type Store } from './client.ts';
import { createdObjects, loadMigrations, migrate, splitStatements } from './migrate.ts';
import { appliedMigrations, schemaLayout, SchemaLayoutError } from './schema-layout.ts';
import { dropProjectTables } from './drop-project-tables.ts';
import { LAYOUT_1_COMMIT, LAYOUT_1_MIGRATIONS, LAYOUT_1_OBJECTS } from './layout-1.ts';
import { writeLayout1Migrations } from '../testing/layout-1-dir.ts';
import { ROOT, tempDataDir } from '../testing/service.ts';

const tables = async (store: Store) =>
  (await (await store.client.query({ query: 'SELECT name FROM system.tables WHERE database = currentDatabase() ORDER BY name', format: 'JSONEachRow' })).json<{ name: string }>()).map((r) => r.name);

async function withStore(fn: (store: Store) => Promise<void>): Promise<void> {
  const store = await openStore({ database: 'stacks' }, tempDataDir('schema-layout-'));
  try {
    await fn(store);
  } finally {
    await store.client.close();
  }
}

test('a store that records layout 1 migrations is refused by migrate(), which applies nothing to it', () =>
  withStore(async (store) => {
    await writeLayout1Migrations(store);
    assert.deepEqual(schemaLayout(await appliedMigrations(store.client), loadMigrations().map((m) => m.name)), {
      kind: 'layout-1',
      // Versions 1-3 have the same names in both layouts: the others tell them apart.
      foreign: LAYOUT_1_MIGRATIONS.slice(3),
    });
    await assert.rejects(migrate(store), (e: unknown) => e instanceof SchemaLayoutError && /lists 0004_tx_reads\.sql and 20 more, which this version does not have \(data layout 1\)/.test(e.message));
    assert.deepEqual(await tables(store), ['schema_migrations'], 'no table created');
  }));

test('a name from neither layout is another version; a fresh or current store is current', () => {
  const current = loadMigrations().map((m) => m.name);
  assert.deepEqual(schemaLayout([{ version: 9, name: '0009_later.sql' }, { version: 4, name: '0004_tx_reads.sql' }], current), { kind: 'other', foreign: ['0009_later.sql', '0004_tx_reads.sql'] });
  assert.deepEqual(schemaLayout([], current), { kind: 'current' });
  assert.deepEqual(schemaLayout(current.map((name, i) => ({ version: i + 1, name })), current), { kind: 'current' });
});

test("the drop before a re-index removes this project's tables and views of both layouts, and no other table of the database", () =>
  withStore(async (store) => {
    // A server database of layout 1 (every object any of its migrations made, as stand-ins), with a
    // table and a view of another application beside them.
    await writeLayout1Migrations(store);
    const isView = (name: string) => name.startsWith('sql_') || name.endsWith('_mv');
    for (const name of LAYOUT_1_OBJECTS.filter((n) => !isView(n))) await store.client.command({ query: `CREATE TABLE ${name} (x UInt8) ENGINE = MergeTree ORDER BY x` });
    for (const name of LAYOUT_1_OBJECTS.filter(isView)) {
      if (name.endsWith('_mv')) await store.client.command({ query: `CREATE MATERIALIZED VIEW ${name} ENGINE = MergeTree ORDER BY x AS SELECT x FROM txs` });
      else await store.client.command({ query: `CREATE VIEW ${name} AS SELECT x FROM txs` });
    }
    await store.client.command({ query: 'CREATE TABLE operator_notes (x UInt8) ENGINE = MergeTree ORDER BY x' });
    await store.client.command({ query: 'CREATE VIEW operator_view AS SELECT x FROM operator_notes' });
    await store.client.command({ query: 'INSERT INTO operator_notes VALUES (7)' });

    const dropped = await dropProjectTables(store);
    assert.deepEqual(new Set(dropped), new Set([...LAYOUT_1_OBJECTS, 'schema_migrations']));
    assert.equal(dropped.at(-1), 'schema_migrations', 'the old layout shows until the drop is done');
    assert.deepEqual((await tables(store)).filter((t) => !t.startsWith('.inner')), ['operator_notes', 'operator_view']);

    // Then the current migrations apply, and a second drop (a re-index run again) takes their tables too.
    assert.deepEqual(await migrate(store), loadMigrations().map((m) => m.version));
    const current = createdObjects(loadMigrations());
    assert.deepEqual(new Set(await dropProjectTables(store)), new Set([...current, 'schema_migrations']));
    assert.deepEqual(await tables(store), ['operator_notes', 'operator_view']);
    const [kept] = await (await store.client.query({ query: 'SELECT x FROM operator_notes', format: 'JSONEachRow' })).json<{ x: number }>();
    assert.equal(kept.x, 7);
  }));

test('the layout 1 lists are every migration file and every table and view of sql/ up to its last commit', (t) => {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  try {
    git('cat-file', '-e', `${LAYOUT_1_COMMIT}^{commit}`);
  } catch {
    // A shallow clone without that commit: the lists cannot be checked here (they are on a full one).
    t.skip(`commit ${LAYOUT_1_COMMIT} is not in this clone's history`);
    return;
  }
  // Every version of every file in sql/ up to that commit (a table a later version dropped included).
  const blobs = new Set<string>();
  const files = new Set<string>();
  for (const commit of git('log', '--format=%H', LAYOUT_1_COMMIT, '--', 'sql/').split('\n').filter(Boolean)) {
    for (const line of git('ls-tree', commit, 'sql/').split('\n').filter((l) => l.endsWith('.sql'))) {
      const [, , blob, path] = line.split(/\s+/);
      blobs.add(blob);
      files.add(path.slice('sql/'.length));
    }
  }
  const objects = new Set<string>();
  for (const blob of blobs) for (const o of createdObjects([{ version: 0, name: blob, statements: splitStatements(git('cat-file', 'blob', blob)) }])) objects.add(o);
  assert.deepEqual([...files].sort(), [...LAYOUT_1_MIGRATIONS].sort());
  assert.deepEqual([...objects].sort(), [...LAYOUT_1_OBJECTS].sort());
});
