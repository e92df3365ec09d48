// isoTime is written out by hand for speed; it must be Date's toISOString for every whole second.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isoTime } from './values.ts';

test('isoTime equals Date.toISOString: edges, leap days, and 200,000 seeded random seconds', () => {
  const edges = [0, 59, 60, 3599, 3600, 86399, 86400, 951782400, 951868800, 4107542400, 1654714685, 253402300799, 253402300800, -1, 1.5, -86400];
  for (const t of edges) assert.equal(isoTime(t), new Date(t * 1000).toISOString(), `t=${t}`);
  let seed = 42;
  const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (let i = 0; i < 200_000; i++) {
    const t = Math.floor(next() * 253402300800);
    assert.equal(isoTime(t), new Date(t * 1000).toISOString(), `t=${t}`);
  }
});

test('isoTime asked again and again for a few times (as the txs of a block ask), colliding in its cache, stays exact', () => {
  const base = 1654714685;
  const times = [base, base + 16, base + 32, base + 1, base + 16 * 1024, base];
  for (let round = 0; round < 50; round++) {
    for (const t of times) assert.equal(isoTime(t), new Date(t * 1000).toISOString(), `t=${t}, round ${round}`);
  }
});
