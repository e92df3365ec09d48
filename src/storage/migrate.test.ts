// The cluster form of every migration (CLICKHOUSE_CLUSTER): there is no cluster here to run it on,
// so the rewrite of each real statement in sql/ is checked as text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadMigrations, toClusterDdl } from './migrate.ts';

test('every CREATE TABLE becomes ON CLUSTER with a Replicated engine keeping its arguments, every ALTER runs ON CLUSTER', () => {
  let creates = 0;
  for (const m of loadMigrations()) {
    for (const st of m.statements) {
      const out = toClusterDdl(st, 'main');
      const created = /^CREATE TABLE IF NOT EXISTS (\w+)/.exec(st)?.[1];
      if (created) {
        creates++;
        assert.match(out, new RegExp(`^CREATE TABLE IF NOT EXISTS ${created} ON CLUSTER \`main\``), `${m.name}: ${created}`);
        const engine = /ENGINE = (\w*)MergeTree(?:\(([^)]*)\))?/.exec(st)!;
        const args = [`'/clickhouse/tables/{shard}/{database}/${created}'`, `'{replica}'`, ...(engine[2] ? [engine[2]] : [])].join(', ');
        assert.ok(out.includes(`ENGINE = Replicated${engine[1]}MergeTree(${args})`), `${m.name}: ${created} engine in\n${out}`);
        assert.doesNotMatch(out, /non_replicated_deduplication_window/, `${m.name}: ${created}`);
        assert.doesNotMatch(out, /SETTINGS\s*(,|$)/, `${m.name}: ${created} left an empty SETTINGS clause`);
      } else if (/^CREATE (MATERIALIZED )?VIEW/.test(st)) {
        assert.match(out, /^CREATE (MATERIALIZED )?VIEW IF NOT EXISTS \w+ ON CLUSTER `main` /, `${m.name}: ${st.slice(0, 60)}`);
      } else if (/^ALTER TABLE/.test(st)) {
        assert.match(out, /^ALTER TABLE \w+ ON CLUSTER `main` /, `${m.name}: ${st.slice(0, 60)}`);
      } else assert.equal(out, st, `${m.name}: other statements run as they are`);
    }
  }
  assert.ok(creates >= 20, `all tables seen (${creates})`);
});
