// Ranges of analytics answers: bounds as unix seconds, ISO dates or cycles, aligned to buckets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketsOf, parseBound, resolveRange, MAX_BUCKETS } from './range.ts';
import { HttpError } from '../errors.ts';

test('bounds are aligned to their bucket; dates are UTC', () => {
  assert.equal(parseBound('from', '2024-01-02', 'day'), Date.UTC(2024, 0, 2) / 1000);
  assert.equal(parseBound('from', '2024-01-02T13:45:00Z', 'hour'), Date.UTC(2024, 0, 2, 13) / 1000);
  assert.equal(parseBound('from', String(Date.UTC(2024, 0, 2, 13, 5) / 1000), 'day'), Date.UTC(2024, 0, 2) / 1000);
  assert.equal(parseBound('from', 17, 'cycle'), 17);
  assert.equal(parseBound('from', undefined, 'day'), undefined);
  for (const [raw, unit] of [['yesterday', 'day'], ['2024-01-02', 'cycle'], ['-5', 'day'], ['99999999999999', 'day']] as const) {
    assert.throws(() => parseBound('from', raw, unit), (e: unknown) => e instanceof HttpError && e.status === 400, raw);
  }
});

test('missing bounds come from the data; too long or reversed ranges are refused', async () => {
  const data = async () => ({ first: 86400 * 10, last: 86400 * 12 });
  assert.deepEqual(await resolveRange('day', {}, data), { unit: 'day', from: 86400 * 10, to: 86400 * 12 });
  assert.deepEqual(await resolveRange('day', { to: 86400 * 11 }, data), { unit: 'day', from: 86400 * 10, to: 86400 * 11 });
  assert.equal(await resolveRange('day', {}, async () => undefined), undefined);
  assert.deepEqual(bucketsOf({ unit: 'day', from: 0, to: 2 * 86400 }), [0, 86400, 172800]);
  await assert.rejects(resolveRange('day', { from: 86400 * 3, to: 86400 }, data), /from must not be after to/);
  await assert.rejects(resolveRange('hour', { from: 0, to: MAX_BUCKETS * 3600 }, data), /more than 5000/);
  const long = await resolveRange('cycle', {}, async () => ({ first: 0, last: 9000 }));
  assert.deepEqual(long, { unit: 'cycle', from: 9000 - MAX_BUCKETS + 1, to: 9000 });
});
