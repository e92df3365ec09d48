import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DecodeHandoff } from './handoff.ts';
import type { DecodeOutcome } from '../../workers/decoded.ts';

const outcome = (reason: string): DecodeOutcome => ({ ok: false, reason });

test('a handed-over decode is taken once, in id order; late ones and those over the budget are dropped', () => {
  const h = new DecodeHandoff(100);
  h.offer(1, outcome('one'), 40);
  h.offer(2, outcome('two'), 40);
  h.offer(3, outcome('three'), 40); // over the budget: decoded from the log instead
  assert.equal(h.size, 2);
  assert.equal(h.bytes, 80);
  assert.deepEqual(h.take(1), outcome('one'));
  assert.equal(h.take(1), undefined, 'taken once');
  assert.equal(h.take(3), undefined);
  // Reading 3 passed 2, whose decode is dropped with its bytes.
  assert.equal(h.size, 0);
  assert.equal(h.bytes, 0);
  h.offer(3, outcome('three, late'), 10);
  assert.equal(h.size, 0, 'an entry already read is not held');
  h.offer(4, outcome('four'), 10);
  h.offer(5, outcome('five'), 10);
  assert.deepEqual(h.take(5), outcome('five'));
  assert.equal(h.bytes, 0);
  assert.equal(h.taken, 2, 'entries 1 and 5');
});
