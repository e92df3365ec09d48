// A list chunk built, stored, read back and changed: its entries as the list's reader sees them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChunkEntries } from './chunk-entries.ts';
import { LIST_FILTERS, chunkEntry, packEntry, type ListEntry } from './principal-list.ts';
import { seeded } from '../testing/fuzz.ts';

const entry = (pid: number, factBytes: number): ListEntry => ({ pid, roles: pid % 7, gaps: LIST_FILTERS.map((_, l) => (pid + l) % 4), block_height: 10 + pid, microblock_sequence: 2147483647, tx_index: pid % 9, fact: new Uint8Array(factBytes).fill(pid & 255) });

test('entries appended, stored, read back and replaced read as the list reader reads them (seeded)', () => {
  const r = seeded(5);
  const chunk = new ChunkEntries();
  const want: ListEntry[] = [];
  for (let i = 0; i < 32; i++) {
    const e = entry(i, r.int(200));
    chunk.set(i, packEntry(e));
    want.push(e);
  }
  assert.equal(chunk.length, 32);
  const stored = chunk.pack(32);
  want.forEach((e, i) => assert.deepEqual(chunkEntry(stored, i), e, `entry ${i} as stored`));
  // Read back from the store (lmdb's reused buffer: the chunk copies what it keeps), then changed.
  const reused = new Uint8Array(stored.length + 50);
  reused.set(stored);
  const again = new ChunkEntries(reused.subarray(0, stored.length));
  reused.fill(0);
  assert.equal(again.length, 32);
  // A removal moves entries down: each replaced by a longer or shorter one.
  for (let i = 5; i < 31; i++) {
    const e = entry(1000 + i, r.int(300));
    again.set(i, packEntry(e));
    want[i] = e;
  }
  const packed = again.pack(31);
  assert.equal(packed[0], 31);
  for (let i = 0; i < 31; i++) assert.deepEqual(chunkEntry(packed, i), want[i], `entry ${i} after the changes`);
  // The last entry (past the count) is kept until overwritten: the next append replaces it.
  again.set(31, packEntry(entry(7, 3)));
  assert.deepEqual(chunkEntry(again.pack(32), 31), entry(7, 3));
  assert.throws(() => again.set(33, new Uint8Array(1)), /past the 32/);
  assert.deepEqual([...(new ChunkEntries().pack(0))], [0]);
});
