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
import { packTxDoc, unpackTxDoc } from './codec.ts';
import type { TxDoc } from './docs.ts';
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
      for (let i = 0; i < 1000; i++) void store.rawTxs.put(`tx${i}`, values[i]);
    });
    await store.close();
    assert.ok(statSync(file).size > 2 ** 39, 'as long as the map');
    const written = blocksBytes(file);
    assert.ok(written >= 1000 * 1000 && written < 16 * 2 ** 20, `takes its pages' blocks: ${written} bytes`);
    store = openServingStore(dir, { readOnly: true });
    assert.ok((store.rawTxs.get('tx999') as Buffer).equals(values[999]));
    await store.close();
    store = openServingStore(dir);
    await store.env.transaction(() => {
      for (let i = 1000; i < 2000; i++) void store.rawTxs.put(`tx${i}`, values[i]);
    });
    await store.close();
    assert.ok(blocksBytes(file) > written);
    copyDataDir(dir, copy);
    assert.ok(blocksBytes(join(copy, 'data.mdb')) <= blocksBytes(file) + 2 ** 20, 'the copy skipped the holes');
    store = openServingStore(copy, { readOnly: true });
    for (const i of [0, 999, 1000, 1999]) assert.ok((store.rawTxs.get(`tx${i}`) as Buffer).equals(values[i]), `tx${i}`);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(copy, { recursive: true, force: true });
  }
});

test('tx documents are stored plain; documents stored compressed before still read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-plain-'));
  const doc = (i: number): TxDoc => ({
    tx_id: `0x${i.toString(16).padStart(64, '0')}`,
    index_block_hash: `0x${'ab'.repeat(32)}`,
    microblock_hash: '',
    block_height: i,
    microblock_sequence: 2147483647,
    tx_index: 0,
    body: `"tx_id":"0x${i}","memo":"${'compressible '.repeat(100)}"`,
    events: [],
    event_count: 0,
    sender_address: 'SP000000000000000000002Q6VF78',
    fee_rate: '180',
    unanchored: false,
  });
  try {
    // A store written as before: every value of 512 bytes or more compressed.
    const before = open({ path: dir, maxDbs: 32, compression: { threshold: 512 } });
    const old = before.openDB({ name: 'txDocs', encoding: 'binary' });
    await old.put(1, packTxDoc(doc(1)));
    await before.close();
    const store = openServingStore(dir);
    await store.txDocs.put(2, packTxDoc(doc(2)));
    const rawEnv = open({ path: dir, maxDbs: 32, readOnly: true });
    const raw = rawEnv.openDB({ name: 'txDocs', encoding: 'binary', compression: false });
    // A compressed value starts with 254 (lmdb's marker); a packed tuple with 0x9d.
    assert.equal((raw.getBinary(1) as Buffer)[0], 254, 'the old document is stored compressed');
    assert.equal((raw.getBinary(2) as Buffer)[0], 0x9d, 'the new one plain');
    assert.deepEqual(unpackTxDoc(store.txDocs.getBinary(1)!), doc(1));
    assert.deepEqual(unpackTxDoc(store.txDocs.getBinary(2)!), doc(2));
    await rawEnv.close();
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
