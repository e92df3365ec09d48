// A batch's analytics rows against a plain BigInt sum of the same changes: the rows of each key and
// bucket carry its summed count and amount, exact beyond 2^53 and across signs, and a row that sums
// to zero is left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnalyticsRows, bucketCode } from './analytics-rows.ts';
import { changeKey } from '../../workers/analytics-changes.ts';
import { seeded } from '../../testing/fuzz.ts';

type Row = Record<string, unknown>;
/** The rows drain hands over, `chunk` at a time, gathered per table. */
function drained(rows: AnalyticsRows, chunk?: number): { byBucket: Row[]; byKey: Row[] } {
  const out = { byBucket: [] as Row[], byKey: [] as Row[] };
  rows.drain((table, list) => {
    const to = table === 'analytics_by_bucket' ? out.byBucket : out.byKey;
    for (const row of list) to.push(row);
  }, chunk);
  return out;
}
const rowKey = (r: Row) => `${r.unit}|${r.kind}|${r.bucket}|${r.a}|${r.b}|${r.c}`;

test('summed rows equal a BigInt sum of the changes, amounts given as numbers or strings, per key and bucket (seeded fuzz, 20,000 changes)', () => {
  const r = seeded(32);
  const rows = new AnalyticsRows();
  const want = new Map<string, { kind: string; unit: string; n: number; amount: bigint }>();
  const kinds = ['tx', 'ptx', 'pstx', 'flow_in', 'hold', 'ft'];
  const units = ['hour', 'day', 'cycle', 'all'] as const;
  const amounts = ['0', '1', '999', '999999999999999', '900719925474099', '4503599627370495', '9007199254740991', '9007199254740993', '123456789012345678901234567890'];
  for (let k = 0; k < 20_000; k++) {
    const kind = r.pick(kinds);
    const a = `SP${r.int(4)}`;
    const buckets = [...new Set(Array.from({ length: 1 + r.int(3) }, () => bucketCode(r.pick(units), 19_000 + r.int(3))))];
    const sign = r.int(3) === 0 ? -1 : 1;
    const n = sign * r.int(3);
    const amount = r.pick(amounts);
    // As the decode workers send them: a number while exact, else the decimal string.
    const given = r.int(2) === 0 && BigInt(amount) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(amount) : amount;
    rows.add(changeKey(kind, a, '', ''), buckets, n, given, sign);
    for (const code of buckets) {
      const unit = units[Math.floor(code / 2 ** 32)];
      const key = `${unit}|${kind}|${code % 2 ** 32}|${a}||`;
      const w = want.get(key) ?? { kind, unit, n: 0, amount: 0n };
      w.n += n;
      w.amount += BigInt(sign) * BigInt(amount);
      want.set(key, w);
    }
  }
  // A sum that passes 2^53 in small steps (each amount exact as a number, the sum not).
  for (const amount of [...Array(11).fill('900719925474099'), '1', '1', '1']) {
    const code = bucketCode('day', 19_000);
    rows.add(changeKey('ptx', 'SPbig', '', ''), [code], 1, amount, 1);
    const w = want.get('day|ptx|19000|SPbig||') ?? { kind: 'ptx', unit: 'day', n: 0, amount: 0n };
    w.n += 1;
    w.amount += BigInt(amount);
    want.set('day|ptx|19000|SPbig||', w);
  }
  const { byBucket, byKey } = drained(rows, Infinity);
  const got = new Map<string, Row>();
  for (const row of [...byBucket, ...byKey]) got.set(rowKey(row), row);
  let kept = 0;
  for (const [key, w] of want) {
    const row = got.get(key);
    const table = byBucket.includes(row as Row) ? 'bucket' : 'key';
    if (w.n === 0 && w.amount === 0n) {
      assert.equal(row, undefined, `${key} sums to zero and is left out`);
      continue;
    }
    // Hour rows are read across keys only: a kind kept by key alone has none.
    if (w.unit === 'hour' && !['tx', 'ptx', 'ft'].includes(w.kind)) continue;
    assert.ok(row, `${key} has a row (${table})`);
    kept++;
    assert.equal(row.n, w.n, `${key}: n`);
    assert.equal(BigInt(row.amount as number | bigint), w.amount, `${key}: amount`);
  }
  assert.ok(kept > 100, `${kept} rows compared`);
  // Taken once: the next batch starts empty.
  assert.deepEqual(drained(rows), { byBucket: [], byKey: [] });
});

test('drain hands over the same rows in any chunk size, in chunks of at most its size, each of one table', () => {
  const fill = (rows: AnalyticsRows) => {
    const r = seeded(7);
    for (let k = 0; k < 2_000; k++) rows.add(changeKey(r.pick(['tx', 'ptx', 'flow_in', 'deploy']), `SP${r.int(50)}`, '', ''), [bucketCode('day', 19_000 + r.int(2)), bucketCode('hour', 456_000 + r.int(2))], 1, String(r.int(1000)), 1);
  };
  const whole = new AnalyticsRows();
  fill(whole);
  const want = drained(whole, Infinity);
  const chunked = new AnalyticsRows();
  fill(chunked);
  const got = { byBucket: [] as Row[], byKey: [] as Row[] };
  const sizes: number[] = [];
  chunked.drain((table, rows) => {
    sizes.push(rows.length);
    (table === 'analytics_by_bucket' ? got.byBucket : got.byKey).push(...rows);
  }, 16);
  assert.ok(want.byBucket.length > 16 && want.byKey.length > 16, 'more rows than one chunk');
  assert.ok(sizes.every((n) => n > 0 && n < 16 + 8), `chunks of ${sizes.join(',')}: at most the size plus one key's buckets`);
  assert.deepEqual(got, want);
  // Drained once: nothing is left.
  chunked.drain(() => assert.fail('nothing to drain'));
});
