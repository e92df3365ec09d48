// String columns as the engine reads them: a column whose values are all ASCII is written in one
// join, any other value by value; both must read back exactly, whatever the strings' lengths (a
// length of 128 or more takes a varint of two bytes or more, whose first bytes are not ASCII).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFragment, mergeFragments } from './native-format.ts';
import { openStore } from './client.ts';
import { tempDataDir } from '../testing/kept-copy.ts';
import { seeded } from '../testing/fuzz.ts';

const COLUMNS = ['col', 'i', 's'];
const TYPES = ['UInt32', 'UInt32', 'String'];

const ascii = (n: number, c = 'a') => c.repeat(n);

test('string columns read back exactly: ASCII of every varint size, non-ASCII, empty (seeded fuzz)', { timeout: 120_000 }, async () => {
  const store = await openStore({ database: 'native_format' }, tempDataDir('native-format-'));
  try {
    await store.client.command({ query: 'CREATE TABLE strs (col UInt32, i UInt32, s String) ENGINE = MergeTree ORDER BY (col, i)' });
    const r = seeded(20261128);
    const columns: string[][] = [
      // All ASCII: one join, with lengths whose varints take one, two and three bytes.
      ['', 'x', ascii(127), ascii(128), ascii(300, 'b'), ascii(16_384, 'c'), '0x' + 'ab'.repeat(32)],
      // One value not ASCII among long ASCII ones: every value is written on its own.
      [ascii(200), 'é', ascii(130, 'd'), '𝄞 and €', ''],
      // A latin1 character (one byte there, two in UTF-8) must not be written as latin1.
      ['\u00ff', ascii(128)],
    ];
    // Fuzzed columns: printable ASCII, control characters, and now and then a non-ASCII character.
    for (let c = 0; c < 20; c++) {
      const values: string[] = [];
      for (let v = r.int(40); v >= 0; v--) {
        const len = r.pick([0, 1, 5, 66, 127, 128, 129, 255, 1000, 20_000]);
        let s = '';
        for (let k = 0; k < len; k++) s += String.fromCharCode(r.int(50) === 0 && c % 2 === 0 ? 0x80 + r.int(0x2000) : r.int(0x80));
        values.push(s);
      }
      columns.push(values);
    }
    for (const [col, values] of columns.entries()) {
      const fragment = encodeFragment(COLUMNS, TYPES, values.map((s, i) => ({ col, i, s })));
      await store.writers()[0].insertRows('strs', COLUMNS, mergeFragments(COLUMNS, TYPES, [fragment]), `strs-${col}`);
    }
    const rows = await store.client.query({ query: 'SELECT col, i, base64Encode(s) AS b FROM strs ORDER BY col, i', format: 'JSONEachRow' });
    const got = (await rows.json()) as Array<{ col: number; i: number; b: string }>;
    const want = columns.flatMap((values, col) => values.map((s, i) => ({ col, i, b: Buffer.from(s, 'utf8').toString('base64') })));
    assert.equal(got.length, want.length);
    for (let k = 0; k < want.length; k++) assert.deepEqual(got[k], want[k], `column ${want[k].col}, value ${want[k].i}`);
  } finally {
    await store.client.close();
  }
});
