import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrapQuarantined, wrapQuarantined } from './quarantined-row.ts';

test('a quarantined entry survives the export row with its exact bytes and its record', () => {
  const bodies = ['{"a": 1e41,  "b":"x,\\"body\\":y"}', '[1, 2]', 'not json at all'];
  for (const text of bodies) {
    const row = { path: '/new_block', body: Buffer.from(text), reason: 'the store refused it ("body": sic)', error: 'Code: 469', at: '2026-01-01T00:00:00.000Z' };
    const back = unwrapQuarantined(wrapQuarantined(row));
    assert.equal(back.body.toString(), text);
    assert.deepEqual({ ...back, body: undefined }, { ...row, body: undefined });
  }
});
