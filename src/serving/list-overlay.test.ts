// The chain-wide tx list: appends keep ordinals 0..n-1, a removal from the tail or deeper leaves it
// dense, and a batch's writes are visible only once flushed and committed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDataDir } from '../testing/service.ts';
import { openServingStore } from './store.ts';
import { CHUNK, TxListOverlay, storedTxListLength, txListFrom } from './list-overlay.ts';

const stored = (s: ReturnType<typeof openServingStore>): number[] => txListFrom(s, storedTxListLength(s) - 1, 1e9).reverse();

test('appends, then removals at the tail and in the middle, across batches', async () => {
  const s = openServingStore(join(tempDataDir('lists-'), 'serving'));
  try {
    const a = new TxListOverlay(s, storedTxListLength(s));
    for (const pid of [10, 11, 12, 13, 2 ** 40 + 14]) a.append(pid);
    assert.equal(storedTxListLength(s), 0, 'not visible before the batch is written');
    a.flush();
    await s.env.committed;
    assert.deepEqual(stored(s), [10, 11, 12, 13, 2 ** 40 + 14]);
    assert.equal(storedTxListLength(s), 5);

    const b = new TxListOverlay(s, storedTxListLength(s));
    assert.equal(b.remove(2 ** 40 + 14), true);
    assert.equal(b.remove(11), true, 'a deeper entry is found too');
    assert.equal(b.remove(99), false, 'an entry that is not there');
    b.append(15);
    b.append(16);
    b.flush();
    await s.env.committed;
    assert.deepEqual(stored(s), [10, 12, 13, 15, 16]);
    assert.equal(storedTxListLength(s), 5);

    // Across chunks: a page from any ordinal, and removals that empty the tail chunk.
    const c = new TxListOverlay(s, storedTxListLength(s));
    const more = Array.from({ length: 3 * CHUNK }, (_, i) => 1000 + i);
    for (const pid of more) c.append(pid);
    c.flush();
    await s.env.committed;
    const all = [10, 12, 13, 15, 16, ...more];
    assert.deepEqual(stored(s), all);
    assert.deepEqual(txListFrom(s, CHUNK + 3, 10), all.slice(CHUNK - 6, CHUNK + 4).reverse());
    const d = new TxListOverlay(s, storedTxListLength(s));
    for (const pid of more.slice(-CHUNK - 5).reverse()) assert.ok(d.remove(pid));
    d.flush();
    await s.env.committed;
    assert.deepEqual(stored(s), all.slice(0, all.length - CHUNK - 5));
    assert.equal(storedTxListLength(s), all.length - CHUNK - 5);
  } finally {
    await s.close();
  }
});
