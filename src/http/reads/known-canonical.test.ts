// Remembered canonical blocks last exactly one reorg generation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { followReorgs, knownCanonical, rememberCanonical, reorgGeneration } from './known-canonical.ts';

test('canonical blocks are remembered until the reorg generation moves, and only with one', () => {
  let generation = 0;
  followReorgs(() => generation);
  rememberCanonical(['0xa', '0xb'], reorgGeneration());
  assert.deepEqual([...knownCanonical(['0xa', '0xb', '0xc'])], ['0xa', '0xb']);

  // A read that started before a reorg was stored is not remembered.
  const before = reorgGeneration();
  generation++;
  rememberCanonical(['0xc'], before);
  assert.deepEqual([...knownCanonical(['0xa', '0xb', '0xc'])], [], 'a reorg forgets every block');

  rememberCanonical(['0xc'], reorgGeneration());
  assert.deepEqual([...knownCanonical(['0xc'])], ['0xc']);

  followReorgs(undefined);
  rememberCanonical(['0xd'], reorgGeneration());
  assert.deepEqual([...knownCanonical(['0xc', '0xd'])], [], 'without a generation nothing is remembered');
});
