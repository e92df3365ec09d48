import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openServingStore } from './store.ts';
import { canReleasePages, fileBackedMb, mappingsOf, releaseMappedPages, releaseOverBudget, residentKbByFile, writePageReleaser } from './resident.ts';

/** KB of `file` resident in this process's mappings. */
const residentKb = (file: string): number => residentKbByFile(readFileSync('/proc/self/smaps', 'utf8'), (path) => path === file).get(file) ?? 0;

// The store's own timer stays off here: the tests drive each release themselves.
process.env.STACKS_API_STORE_RESIDENT_MB = '0';
const DOCS = 2000;

async function filledStore() {
  const dir = mkdtempSync(join(tmpdir(), 'resident-'));
  const store = openServingStore(dir);
  // Incompressible 32 KB values (LZ4 cannot shrink them): 64 MB of overflow pages.
  const values = Array.from({ length: DOCS }, () => randomBytes(32 * 1024));
  await store.env.transaction(() => {
    values.forEach((v, i) => void store.writes.blocks.put(i, v));
  });
  const readAll = () => values.every((v, i) => (store.writes.blocks.get(i) as Buffer).equals(v));
  const file = join(dir, 'data.mdb');
  // Written through the map, the pages are resident already: start, as a reader would, with none.
  if (canReleasePages) await releaseMappedPages(file);
  return { dir, store, file, readAll };
}

test('the native addon is built (without it the serving store keeps every page it reads in RSS)', () => {
  assert.equal(canReleasePages, true);
});

test('mappingsOf reads the ranges of one file from a maps text', () => {
  const maps = [
    '7f0000000000-7f0000100000 r--s 00000000 08:01 1234   /data/serving/data.mdb',
    '7f0000100000-7f0000200000 r--p 00000000 08:01 99     /usr/lib/libc.so',
    '7f1000000000-7f1000001000 rw-s 00000000 08:01 1235   /data/serving/lock.mdb',
    '7f2000000000-7f2000002000 r--s 00000000 08:01 1234   /data/serving/data.mdb',
    '7f3000000000-7f3000001000 rw-p 00000000 00:00 0 ',
  ].join('\n');
  assert.deepEqual(mappingsOf('/data/serving/data.mdb', maps), [
    [0x7f0000000000n, 0x100000n],
    [0x7f2000000000n, 0x2000n],
  ]);
});

test('released pages leave RSS and read back unchanged', async () => {
  const { dir, store, file, readAll } = await filledStore();
  try {
    assert.ok(readAll());
    const before = residentKb(file);
    assert.ok(before > 48 * 1024, `read pages are resident: ${before} KB`);
    const released = await releaseMappedPages(file);
    assert.equal(released.mappings, 1);
    assert.ok(released.fileBackedMb !== null && released.fileBackedMb < fileBackedMb() + 1, `file-backed RSS right after the drop: ${released.fileBackedMb} MB`);
    const after = residentKb(file);
    assert.ok(after < 1024, `after the release: ${after} KB (before ${before} KB)`);
    // The data is in the file: every value reads back the same, and is resident again.
    assert.ok(readAll());
    assert.ok(residentKb(file) > 48 * 1024);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('releaseOverBudget gives pages back once RSS grows by its budget, and stops', async () => {
  const { dir, store, file, readAll } = await filledStore();
  try {
    let releases = 0;
    const stop = releaseOverBudget(file, 16, () => releases++);
    readAll();
    const deadline = Date.now() + 5000;
    // The pages leave as soon as madvise returns, the count once its promise settles: wait for both.
    while ((residentKb(file) > 1024 || releases === 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok(residentKb(file) < 1024, 'released within 5 s');
    assert.ok(releases >= 1);
    // Under the budget: nothing is released.
    const under = releases;
    store.writes.blocks.get(0);
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(releases, under);
    assert.ok(residentKb(file) > 0);
    stop();
    readAll();
    await new Promise((r) => setTimeout(r, 2500));
    assert.ok(residentKb(file) > 48 * 1024, 'no release after stop');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the next budget counts from right after the drop, not from when the event loop got back to it', async () => {
  const { dir, store, file, readAll } = await filledStore();
  try {
    let releases = 0;
    const stop = releaseOverBudget(file, 16, () => releases++);
    // Same period, made right after it: runs right after its check, in the same turn of the loop.
    // The check has queued the drop; this waits (without yielding) until the pages are gone, then
    // maps them all again before the drop's promise can settle, as a batch's write does on a busy
    // thread.
    let remapped = false;
    const busy = setInterval(() => {
      clearInterval(busy);
      const until = Date.now() + 5000;
      while (residentKb(file) > 1024 && Date.now() < until);
      readAll();
      remapped = true;
    }, 1000);
    readAll();
    const deadline = Date.now() + 6000;
    while ((!remapped || releases < 2) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    stop();
    assert.ok(remapped);
    // The 64 MB mapped again are over the budget counted from the drop: a second release.
    assert.ok(releases >= 2, `releases: ${releases}`);
    assert.ok(residentKb(file) < 1024, `resident: ${residentKb(file)} KB`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('inside a write, the releaser drops pages once RSS grows by its budget, and the writes are kept', async () => {
  const { dir, store, file, readAll } = await filledStore();
  try {
    const release = writePageReleaser(file, 8);
    let peakKb = 0;
    const rewritten = Array.from({ length: DOCS }, () => randomBytes(32 * 1024));
    await store.env.transaction(() => {
      // Read each value, then overwrite it (a dirty page of the write map), as a batch's write does.
      for (let i = 0; i < DOCS; i++) {
        store.writes.blocks.get(i);
        void store.writes.blocks.put(i, rewritten[i]);
        release();
        if (i % 100 === 99) peakKb = Math.max(peakKb, residentKb(file));
      }
    });
    // 64 MB read and 64 MB written: without the releaser all of it stays mapped (the last test).
    assert.ok(peakKb < 28 * 1024, `peak resident inside the write: ${peakKb} KB`);
    assert.ok(readAll() === false, 'the values were overwritten');
    assert.ok(rewritten.every((v, i) => (store.writes.blocks.get(i) as Buffer).equals(v)), 'the dropped dirty pages were written');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without the releaser the same write keeps every page it touched', async () => {
  const { dir, store, file } = await filledStore();
  try {
    let peakKb = 0;
    await store.env.transaction(() => {
      for (let i = 0; i < DOCS; i++) {
        store.writes.blocks.get(i);
        if (i % 100 === 99) peakKb = Math.max(peakKb, residentKb(file));
      }
    });
    assert.ok(peakKb > 48 * 1024, `peak resident: ${peakKb} KB`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
