// Written through its map, the store's file is as long as the map (1 TiB, sparse) while open; closed,
// it is cut back to the pages it holds, and it opens, reads and grows again from there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openServingStore } from './store.ts';

process.env.STACKS_API_STORE_RESIDENT_MB = '0';

test('a closed store is cut back to its pages and opens again with everything in it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-'));
  const file = join(dir, 'data.mdb');
  // Incompressible, so the pages hold at least their bytes.
  const values = Array.from({ length: 2000 }, () => randomBytes(1000));
  try {
    let store = openServingStore(dir);
    await store.env.transaction(() => {
      for (let i = 0; i < 1000; i++) void store.rawTxs.put(`tx${i}`, values[i]);
    });
    assert.ok(statSync(file).size > 2 ** 39, 'open for writing, the file is as long as the map');
    await store.close();
    const closed = statSync(file).size;
    assert.ok(closed < 8 * 2 ** 20 && closed >= 1000 * 1000, `closed: ${closed} bytes`);
    store = openServingStore(dir, { readOnly: true });
    assert.ok((store.rawTxs.get('tx999') as Buffer).equals(values[999]));
    await store.close();
    assert.equal(statSync(file).size, closed, 'a reader leaves the length alone');
    store = openServingStore(dir);
    await store.env.transaction(() => {
      for (let i = 1000; i < 2000; i++) void store.rawTxs.put(`tx${i}`, values[i]);
    });
    assert.ok((store.rawTxs.get('tx0') as Buffer).equals(values[0]));
    await store.close();
    assert.ok(statSync(file).size > closed);
    store = openServingStore(dir, { readOnly: true });
    for (const i of [0, 999, 1000, 1999]) assert.ok((store.rawTxs.get(`tx${i}`) as Buffer).equals(values[i]), `tx${i}`);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
