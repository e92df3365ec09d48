// The bounds memo reads once per key and data version, and never keeps a failed read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoBounds, type Bounds } from './bounds-memo.ts';

test('bounds are read once per key and data version, again after the version moves or a read fails', async () => {
  let reads = 0;
  const read = (b: Bounds) => () => (reads++, Promise.resolve(b));
  assert.deepEqual(await memoBounds(1, 'a', read({ first: 1, last: 2 })), { first: 1, last: 2 });
  assert.deepEqual(await memoBounds(1, 'a', read({ first: 9, last: 9 })), { first: 1, last: 2 });
  assert.equal(reads, 1);
  assert.deepEqual(await memoBounds(1, 'b', read(undefined)), undefined);
  assert.equal(reads, 2);
  assert.deepEqual(await memoBounds(2, 'a', read({ first: 1, last: 3 })), { first: 1, last: 3 }, 'a new version reads again');
  assert.equal(reads, 3);
  await assert.rejects(memoBounds(2, 'c', () => Promise.reject(new Error('engine busy'))));
  assert.deepEqual(await memoBounds(2, 'c', read({ first: 5, last: 5 })), { first: 5, last: 5 }, 'a failed read is not kept');
  assert.deepEqual(await memoBounds(undefined, 'a', read({ first: 7, last: 7 })), { first: 7, last: 7 }, 'without a version, read every time');
  assert.equal(reads, 5);
});
