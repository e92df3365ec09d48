import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyEscape, copyUnescape, parseTsvLine, payloadText } from './copy-text.ts';
import { SHARED } from '../../testing/service.ts';

test('COPY escaping round-trips', () => {
  const s = 'a\\b\n"c"\t\r\u0008\f\v';
  assert.equal(copyUnescape(copyEscape(s)), s);
});

test('payloads: COPY-escaped and raw JSON rows are both read as the JSON they stand for', () => {
  const json = JSON.stringify({ vm_error: 'line one\nline "two"\\path', n: 1 });
  assert.deepEqual(JSON.parse(payloadText(copyEscape(json))), JSON.parse(json));
  assert.deepEqual(JSON.parse(payloadText(json)), JSON.parse(json));
  assert.equal(payloadText('{"a":1}'), '{"a":1}');
});

test('every row of the recorded logs parses (including the one raw-JSON row)', () => {
  for (const f of ['fuzzed-transactions-1.tsv', 'mocknet.tsv', 'mainnet-reorg-scenario2.tsv']) {
    for (const line of readFileSync(join(SHARED, 'fixtures', f), 'utf8').split('\n')) {
      const row = parseTsvLine(line);
      if (row) assert.doesNotThrow(() => JSON.parse(row.payload), `${f} id ${row.id}`);
    }
  }
});
