// The holder-count rows a batch adds, against stored pair balances in a real store: a principal's
// balance turning positive adds 1 in its block's bucket, one returning to zero removes 1, changes
// are replayed in the order applied (a block and its undo cancel, in their own buckets), and a
// batch redone after its pair rows were stored writes the same rows again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStore, type Store } from '../../storage/client.ts';
import { migrate } from '../../storage/migrate.ts';
import { tempDataDir } from '../../testing/service.ts';
import { RowSet } from '../../workers/rows.ts';
import { insertRowSet } from '../../testing/insert-row-set.ts';
import { HolderTransitions, type HolderCount } from './holder-transitions.ts';

function insert(store: Store, table: string, rows: Array<Record<string, unknown>>, token: string): Promise<void> {
  const set = new RowSet();
  for (const r of rows) set.add(table, r);
  return insertRowSet(store, set, token);
}

const at = (day: number) => [['day', day] as const, ['cycle', 7] as const];

/** One batch: T's S2 and S4 receive their first on day 1, S1 spends all on day 2, S4 spends all
 *  on day 3, S5 receives on day 3 and its block is orphaned (undone, in that block's bucket); U's S6
 *  receives its first on day 3. */
function batch(): HolderTransitions {
  const b = new HolderTransitions();
  b.add('T', 'S2', 3n, at(1));
  b.add('T', 'S4', 2n, at(1));
  b.add('T', 'S1', -5n, at(2));
  b.add('T', 'S4', -2n, at(3));
  b.add('T', 'S5', 4n, at(3));
  b.add('T', 'S5', -4n, at(3));
  b.add('U', 'S6', 1n, at(3));
  return b;
}

const rowsOf = (counts: HolderCount[]) => Object.fromEntries(counts.map((r) => [`${r.unit}/${r.asset}/${r.bucket}`, r.n]));
const balances = (rows: Array<Record<string, unknown>>) => Object.fromEntries(rows.map((r) => [`${r.asset}/${r.principal}`, r.balance]));

test("a batch counts holders in each change's bucket, in the order applied, the same when redone", async () => {
  const store = await openStore({ database: 'stacks' }, join(tempDataDir('stacks-holders-'), 'data'));
  try {
    await migrate(store);
    await insert(store, 'ft_holder_pairs', [{ asset: 'T', principal: 'S1', balance: '5', log_to: 10 }, { asset: 'T', principal: 'S3', balance: '9', log_to: 10 }], 'before');

    const first = await batch().take(store, 20);
    // S4 joins and leaves (net 0) but counts on day 1 and day 3; T's cycle total cancels.
    assert.deepEqual(rowsOf(first.counts), { 'day/T/1': 2, 'day/T/2': -1, 'day/T/3': -1, 'day/U/3': 1, 'cycle/U/7': 1 });
    assert.deepEqual(balances(first.pairs), { 'T/S1': '0', 'T/S2': '3', 'U/S6': '1' }, 'pairs whose balance changed');

    // The attempt stored its pair rows, then the process died before the batch was committed.
    await insert(store, 'ft_holder_pairs', first.pairs, 'attempt');
    const redo = await batch().take(store, 20);
    assert.deepEqual(rowsOf(redo.counts), rowsOf(first.counts), 'a redo writes the same rows');
    assert.deepEqual(balances(redo.pairs), balances(first.pairs));

    const next = new HolderTransitions();
    next.add('T', 'S3', -9n, at(4));
    next.add('T', 'S1', 2n, at(4));
    next.add('T', 'S2', -3n, at(5));
    const later = await next.take(store, 30);
    assert.deepEqual(rowsOf(later.counts), { 'day/T/5': -1, 'cycle/T/7': -1 }, 'a later batch counts from the stored balances (S3 leaves and S1 returns on day 4)');
    assert.deepEqual((await next.take(store, 40)).counts, [], 'the changes are taken once');
  } finally {
    await store.client.close();
  }
});
