import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmtTime } from './progress.ts';

test('an ETA rounds to whole seconds before it splits into minutes (never 2m60s)', () => {
  assert.equal(fmtTime(179.6), '3m00s');
  assert.equal(fmtTime(179.4), '2m59s');
  assert.equal(fmtTime(59.5), '1m00s');
  assert.equal(fmtTime(0), '0m00s');
  assert.equal(fmtTime(3725), '62m05s');
  assert.equal(fmtTime(Infinity), '?');
});
