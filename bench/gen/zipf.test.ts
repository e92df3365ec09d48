// The Zipf sampler draws ranks with the frequencies P(k) = k^-s / H(n, s), and the PRNG is
// deterministic per seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from './rng.ts';
import { Zipf, harmonic, zipfShare } from './zipf.ts';

test('the same seed gives the same stream; forks and other seeds give other streams', () => {
  const a = new Rng('x');
  const b = new Rng('x');
  const xs = Array.from({ length: 100 }, () => a.u32());
  assert.deepEqual(Array.from({ length: 100 }, () => b.u32()), xs);
  assert.notDeepEqual(Array.from({ length: 100 }, () => new Rng('y').u32()), xs);
  assert.notDeepEqual(Array.from({ length: 100 }, () => new Rng('x').fork('f').u32()), xs);
  const r = new Rng('bytes');
  for (const n of [0, 1, 3, 4, 65]) assert.equal(r.bytes(n).length, n);
});

for (const [n, s] of [
  [10_000, 1.0],
  [1_000_000, 1.0],
  [50_000, 1.2],
  [1_000, 0.8],
] as const) {
  test(`Zipf(n=${n}, s=${s}): rank shares match k^-s / H(n, s)`, () => {
    const z = new Zipf(n, s);
    const rng = new Rng(`zipf-${n}-${s}`);
    const draws = 200_000;
    const counts = new Map<number, number>();
    for (let i = 0; i < draws; i++) {
      const k = z.sample(rng);
      assert.ok(k >= 1 && k <= n);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    for (const k of [1, 2, 5, 10]) {
      const expected = zipfShare(n, s, k);
      const got = (counts.get(k) ?? 0) / draws;
      // within 5 standard deviations of a binomial share
      const sd = Math.sqrt((expected * (1 - expected)) / draws);
      assert.ok(Math.abs(got - expected) < 5 * sd + 1e-4, `rank ${k}: ${got.toFixed(4)} vs ${expected.toFixed(4)}`);
    }
  });
}

test('the documented skew: s = 1 over 1M principals puts ≥ 100k of 10M txs on each of the top ranks', () => {
  const n = 1_000_000;
  const h = harmonic(n, 1);
  assert.ok(Math.abs(h - (Math.log(n) + 0.5772156649)) < 1e-3, `H(1e6, 1) = ${h}`);
  const perRank = (k: number) => 10_000_000 * zipfShare(n, 1, k);
  assert.ok(perRank(1) > 600_000 && perRank(6) >= 100_000, `rank 1: ${perRank(1)}, rank 6: ${perRank(6)}`);
  // a principal in the middle of the ranking is drawn only a handful of times
  assert.ok(perRank(n / 2) < 5, `median rank: ${perRank(n / 2)}`);
});
