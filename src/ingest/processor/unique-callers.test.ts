// The distinct-caller changes a batch makes, against stored pair counts in a real store: a pair's first
// canonical call adds 1, a reorg taking its last one away removes 1, and changes that cancel within
// the batch, or leave a pair with calls on both sides, add nothing. A batch redone after its pair
// rows were stored writes the same rows again. (The recorded reorg fixtures orphan no contract's
// only call from a sender, so the -1 path is shown here.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStore, type Store } from '../../storage/client.ts';
import { migrate } from '../../storage/migrate.ts';
import { tempDataDir } from '../../testing/service.ts';
import { RowSet } from '../../workers/rows.ts';
import { insertRowSet } from '../../testing/insert-row-set.ts';
import { CallerTransitions } from './unique-callers.ts';

function insert(store: Store, table: string, rows: Array<Record<string, unknown>>, token: string): Promise<void> {
  const set = new RowSet();
  for (const r of rows) set.add(table, r);
  return insertRowSet(store, set, token);
}

/** One batch's changes: A loses one of S1's two calls, B loses S2's only call, C gains a new
 *  caller, D's first caller comes and goes within the batch, E gains its first caller. */
function batch(): CallerTransitions {
  const b = new CallerTransitions();
  b.add('A', 'S1', -1);
  b.add('B', 'S2', -1);
  b.add('C', 'S4', 1);
  b.add('D', 'S5', 1);
  b.add('D', 'S5', -1);
  b.add('E', 'S6', 2);
  return b;
}

const byContract = (changes: Array<[string, number]>) => Object.fromEntries(changes);
const counts = (rows: Array<Record<string, unknown>>) => Object.fromEntries(rows.map((r) => [`${r.contract_id}/${r.sender}`, r.calls]));

test('a batch adds +1 for a first caller, -1 for a caller whose last call is orphaned, the same when redone', async () => {
  const store = await openStore({ database: 'stacks' }, join(tempDataDir('stacks-ucallers-'), 'data'));
  try {
    await migrate(store);
    const stored = [
      { contract_id: 'A', sender: 'S1', calls: 2, log_to: 10 },
      { contract_id: 'B', sender: 'S2', calls: 1, log_to: 10 },
      { contract_id: 'C', sender: 'S3', calls: 1, log_to: 10 },
    ];
    await insert(store, 'contract_callers', stored, 'before');

    const first = await batch().take(store, 20);
    assert.deepEqual(byContract(first.distinct), { B: -1, C: 1, E: 1 });
    assert.deepEqual(counts(first.pairs), { 'A/S1': 1, 'B/S2': 0, 'C/S4': 1, 'E/S6': 2 });

    // The attempt stored its pair rows, then the process died before the batch was committed.
    await insert(store, 'contract_callers', first.pairs, 'attempt');
    const redo = await batch().take(store, 20);
    assert.deepEqual(byContract(redo.distinct), byContract(first.distinct), 'a redo writes the same distinct-caller rows');
    assert.deepEqual(counts(redo.pairs), counts(first.pairs));

    const next = new CallerTransitions();
    next.add('B', 'S2', 1);
    next.add('A', 'S1', -1);
    const later = await next.take(store, 30);
    assert.deepEqual(byContract(later.distinct), { A: -1, B: 1 }, 'a later batch counts from the stored counts');
    assert.deepEqual((await next.take(store, 40)).distinct, [], 'the changes are taken once');
  } finally {
    await store.client.close();
  }
});
