// The distinct-caller rows a batch adds, against stored 'caller' totals in a real store: a pair's
// first canonical call adds 1, a reorg taking its last one away removes 1, and changes that cancel
// within the batch, or leave a pair with calls on both sides, add nothing. (The recorded reorg
// fixtures orphan no contract's only call from a sender, so the -1 path is shown here.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStore } from '../../storage/client.ts';
import { migrate } from '../../storage/migrate.ts';
import { tempDataDir } from '../../testing/service.ts';
import { toCompactRows, parseInsertTarget } from '../../workers/rows.ts';
import { CallerTransitions } from './unique-callers.ts';

test('a batch adds +1 for a first caller, -1 for a caller whose last call is orphaned, nothing else', async () => {
  const store = await openStore({ database: 'stacks' }, join(tempDataDir('stacks-ucallers-'), 'data'));
  try {
    await migrate(store);
    // Stored before the batch, in two cycles: S1 called A twice, S2 called B once, S3 called C once.
    const stored = [
      ['A', 'S1', 1, 1],
      ['A', 'S1', 2, 1],
      ['B', 'S2', 1, 1],
      ['C', 'S3', 2, 1],
    ].map(([a, b, bucket, n]) => ({ unit: 'cycle', kind: 'caller', bucket, a, b, c: '', n, amount: '0' }));
    for (const [target, text] of Object.entries(toCompactRows('analytics_by_bucket', stored))) {
      const { table, columns } = parseInsertTarget(target);
      await store.writers()[0].insertRows(table, columns, text, 'ucallers-test');
    }
    const batch = new CallerTransitions();
    batch.add('A', 'S1', -1); // one of two calls orphaned: S1 still called A
    batch.add('B', 'S2', -1); // S2's only call to B orphaned
    batch.add('C', 'S4', 1); // a new caller of C
    batch.add('D', 'S5', 1); // a new contract's first caller, its block then orphaned in the same batch
    batch.add('D', 'S5', -1);
    batch.add('E', 'S6', 2);
    const rows = await batch.takeRows(store);
    const byContract = Object.fromEntries(rows.map((r) => [r.a, r.n]));
    assert.deepEqual(byContract, { B: -1, C: 1, E: 1 });
    for (const r of rows) assert.deepEqual({ unit: r.unit, kind: r.kind, bucket: r.bucket }, { unit: 'all', kind: 'ucaller', bucket: 0 });
    assert.deepEqual(await batch.takeRows(store), [], 'the changes are taken once');
  } finally {
    await store.client.close();
  }
});
