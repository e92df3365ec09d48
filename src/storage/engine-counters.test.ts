import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from './client.ts';
import { countersSince, describeCounters, readEngineCounters } from './engine-counters.ts';
import { tempDataDir } from '../testing/service.ts';

test("the engine's counters give a run's inserted rows exactly and its background merges", { timeout: 120_000 }, async () => {
  const store = await openStore({ database: 'engine_counters' }, tempDataDir('engine-counters-'));
  try {
    await store.client.command({ query: 'CREATE TABLE t (k UInt64, v String) ENGINE = MergeTree ORDER BY k' });
    const before = await readEngineCounters(store);
    // As the processor inserts (INSERT ... SELECT from its Native file): twelve parts of 1,000 rows.
    for (let part = 0; part < 12; part++) {
      await store.client.command({ query: `INSERT INTO t SELECT number + ${part * 1000}, toString(number) FROM numbers(1000)` });
    }
    assert.equal(countersSince(before, await readEngineCounters(store)).InsertedRows, 12_000);
    // The background merges run on their own (and count their rows as they go): wait until one took
    // at least six parts and then neither the parts nor the counters change for 300 ms, so the two
    // are read at the same state.
    const parts = async () => {
      const rs = await store.client.query({ query: "SELECT name, toUInt64(rows) AS rows, toUInt32(level) AS level FROM system.parts WHERE active AND database = 'engine_counters' AND table = 't' ORDER BY rows DESC", format: 'JSONEachRow' });
      return rs.json<{ name: string; rows: string; level: number }>();
    };
    let merged: { rows: number; level: number } | undefined;
    let c = before;
    for (let i = 0; i < 100 && !merged; i++) {
      const [p1, c1] = [await parts(), await readEngineCounters(store)];
      await new Promise((r) => setTimeout(r, 300));
      const [p2, c2] = [await parts(), await readEngineCounters(store)];
      const top = p2[0];
      const settled = JSON.stringify(p1) === JSON.stringify(p2) && JSON.stringify(c1) === JSON.stringify(c2);
      if (settled && top && Number(top.rows) >= 6000 && top.level >= 1) {
        // Every merged part there is (level 1 or more), as one: its rows, and the deepest level.
        const made = p2.filter((p) => p.level >= 1);
        merged = { rows: made.reduce((n, p) => n + Number(p.rows), 0), level: Math.max(...made.map((p) => p.level)) };
        c = countersSince(before, c2);
      }
    }
    assert.ok(merged, 'a background merge of the twelve parts');
    // Every row of a merged part was written by at least one merge, and by at most one a level.
    assert.ok(c.MergedRows >= merged.rows && c.MergedRows <= merged.rows * merged.level, `merged rows ${c.MergedRows} for merged parts of ${merged.rows} rows, levels up to ${merged.level}`);
    assert.ok(c.Merge >= 1 && c.Merge <= 11, `merges: ${c.Merge}`);
    assert.match(describeCounters(c), /^engine: 12,000 rows inserted .* merges of [\d,]+ rows \(\d\.\d\d a row inserted/);
  } finally {
    await store.client.close();
  }
});
