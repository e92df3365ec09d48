import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withinDepth } from './json-depth.ts';

test('nesting depth of a parsed value, without recursion', () => {
  assert.equal(withinDepth({ a: [1, { b: 2 }] }, 3), true);
  assert.equal(withinDepth({ a: [1, { b: [] }] }, 3), false);
  assert.equal(withinDepth('[[[[', 1), true, 'strings do not nest');
  assert.equal(withinDepth(null, 0), true);
  assert.equal(withinDepth(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), 256), false);
  assert.equal(withinDepth(JSON.parse(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`), 256), false);
});
