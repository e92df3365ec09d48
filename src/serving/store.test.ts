// Written through its map, the store's file is as long as the map (1 TiB) but sparse: it takes the
// blocks of its pages only, it opens, reads and grows again, and a data-directory copy that skips
// holes (the tests' copyDataDir, as cp --sparse) stays its size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { open } from 'lmdb';
import { openServingStore } from './store.ts';
import { ServingLayoutError, servingLayoutVersion } from './layout.ts';
import { copyDataDir } from '../testing/kept-copy.ts';

process.env.STACKS_API_STORE_RESIDENT_MB = '0';

const blocksBytes = (file: string) => statSync(file).blocks * 512;

test('the store file is sparse, opens again with everything in it, and copies at its size', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-'));
  const copy = mkdtempSync(join(tmpdir(), 'store-copy-'));
  const file = join(dir, 'data.mdb');
  // Incompressible, so the pages hold at least their bytes.
  const values = Array.from({ length: 2000 }, () => randomBytes(1000));
  try {
    let store = openServingStore(dir);
    await store.env.transaction(() => {
      for (let i = 0; i < 1000; i++) void store.writes.blocks.put(i, values[i]);
    });
    await store.close();
    assert.ok(statSync(file).size > 2 ** 39, 'as long as the map');
    const written = blocksBytes(file);
    assert.ok(written >= 1000 * 1000 && written < 16 * 2 ** 20, `takes its pages' blocks: ${written} bytes`);
    store = openServingStore(dir, { readOnly: true });
    assert.ok((store.writes.blocks.get(999) as Buffer).equals(values[999]));
    await store.close();
    store = openServingStore(dir);
    await store.env.transaction(() => {
      for (let i = 1000; i < 2000; i++) void store.writes.blocks.put(i, values[i]);
    });
    await store.close();
    assert.ok(blocksBytes(file) > written);
    copyDataDir(dir, copy);
    assert.ok(blocksBytes(join(copy, 'data.mdb')) <= blocksBytes(file) + 2 ** 20, 'the copy skipped the holes');
    store = openServingStore(copy, { readOnly: true });
    for (const i of [0, 999, 1000, 1999]) assert.ok((store.writes.blocks.get(i) as Buffer).equals(values[i]), `tx${i}`);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(copy, { recursive: true, force: true });
  }
});

test('a store of an earlier layout is refused, naming the command that rebuilds it; a new one names its layout', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-layout-'));
  try {
    // Stores as earlier versions left them: layout 1 (its marker, and no layout key), and layout 2
    // (tx documents with their events and raw bytes inside).
    for (const layout of [1, 2]) {
      rmSync(dir, { recursive: true, force: true });
      const before = open({ path: dir, maxDbs: 32 });
      const meta = before.openDB({ name: 'meta' });
      await meta.put('applied', { logId: 42 });
      if (layout > 1) await meta.put('layout', layout);
      await before.close();
      for (const readOnly of [false, true]) {
        assert.throws(() => openServingStore(dir, { readOnly }), (e: Error) => e instanceof ServingLayoutError && new RegExp(`layout ${layout}, this version reads layout 3: .*npm run rebuild-serving`).test(e.message));
      }
    }
    rmSync(dir, { recursive: true, force: true });
    const store = openServingStore(dir);
    assert.equal(store.meta.get('layout'), servingLayoutVersion);
    await store.close();
    const again = openServingStore(dir, { readOnly: true });
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
