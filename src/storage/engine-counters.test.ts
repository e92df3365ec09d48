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
    // The background merges run on their own; wait for one that took at least six parts.
    let merged: { rows: number; level: number } | undefined;
    for (let i = 0; i < 100 && !merged; i++) {
      const rs = await store.client.query({ query: "SELECT toUInt64(rows) AS rows, toUInt32(level) AS level FROM system.parts WHERE active AND database = 'engine_counters' AND table = 't' ORDER BY rows DESC LIMIT 1", format: 'JSONEachRow' });
      const top = (await rs.json<{ rows: string; level: number }>())[0];
      if (top && Number(top.rows) >= 6000 && top.level >= 1) merged = { rows: Number(top.rows), level: top.level };
      else await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(merged, 'a background merge of the twelve parts');
    const c = countersSince(before, await readEngineCounters(store));
    // Every row of the merged part was written by at least one merge, and by at most one a level.
    assert.ok(c.MergedRows >= merged.rows && c.MergedRows <= merged.rows * merged.level, `merged rows ${c.MergedRows} for a part of ${merged.rows} at level ${merged.level}`);
    assert.ok(c.Merge >= 1 && c.Merge <= 11, `merges: ${c.Merge}`);
    assert.match(describeCounters(c), /^engine: 12,000 rows inserted .* merges of [\d,]+ rows \(\d\.\d\d a row inserted/);
  } finally {
    await store.client.close();
  }
});
