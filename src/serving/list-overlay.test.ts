// Dense lists: appends keep ordinals 0..n-1, a removal from the tail or deeper leaves them dense, and
// a batch's writes are visible only once flushed and committed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDataDir } from '../testing/service.ts';
import { openServingStore } from './store.ts';
import { ListLengths, ListOverlay, storedListLength } from './list-overlay.ts';

function stored(s: ReturnType<typeof openServingStore>, list: number, p: string): number[] {
  return [...s.lists.getRange({ start: [list, p, 0], end: [list, p, Number.MAX_SAFE_INTEGER] })].map((e) => e.value);
}

test('appends, then removals at the tail and in the middle, across batches', async () => {
  const s = openServingStore(join(tempDataDir('lists-'), 'serving'));
  try {
    const a = new ListOverlay(s);
    for (const pid of [10, 11, 12, 13, 14]) a.append(1, 'SP1', pid);
    a.append(1, 'SP2', 20);
    assert.equal(storedListLength(s, 1, 'SP1'), 0, 'not visible before the batch is written');
    a.flush();
    await s.env.committed;
    assert.deepEqual(stored(s, 1, 'SP1'), [10, 11, 12, 13, 14]);
    assert.equal(storedListLength(s, 1, 'SP1'), 5);

    const b = new ListOverlay(s);
    assert.equal(b.remove(1, 'SP1', 14), true);
    assert.equal(b.remove(1, 'SP1', 11), true, 'a deeper entry is found too');
    assert.equal(b.remove(1, 'SP1', 99), false, 'an entry that is not there');
    b.append(1, 'SP1', 15);
    b.flush();
    await s.env.committed;
    assert.deepEqual(stored(s, 1, 'SP1'), [10, 12, 13, 15]);
    assert.equal(storedListLength(s, 1, 'SP1'), 4);
    assert.deepEqual(stored(s, 1, 'SP2'), [20], 'other principals untouched');
  } finally {
    await s.close();
  }
});

test("the writer's remembered lengths: newer than the committed store, and read back once forgotten", async () => {
  const s = openServingStore(join(tempDataDir('lists-'), 'serving'));
  try {
    const lengths = new ListLengths(s, 2);
    const a = new ListOverlay(s, lengths);
    for (const pid of [10, 11, 12]) a.append(1, 'SP1', pid);
    a.flush();
    // Not committed yet: the next batch still appends after the third entry.
    const b = new ListOverlay(s, lengths);
    b.append(1, 'SP1', 13);
    b.flush();
    await s.env.committed;
    assert.deepEqual(stored(s, 1, 'SP1'), [10, 11, 12, 13]);
    // Two other lists push SP1's out of a memory of two; its length is then read from the store.
    const c = new ListOverlay(s, lengths);
    c.append(1, 'SP2', 20);
    c.append(1, 'SP3', 30);
    c.flush();
    await s.env.committed;
    const d = new ListOverlay(s, lengths);
    d.append(1, 'SP1', 14);
    d.flush();
    await s.env.committed;
    assert.deepEqual(stored(s, 1, 'SP1'), [10, 11, 12, 13, 14]);
    assert.equal(lengths.get(1, 'SP1'), 5);
  } finally {
    await s.close();
  }
});
