// PostgreSQL's in-memory sort, reproduced: sorted output, and ties left where PostgreSQL leaves them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { postgresSort } from './pg-order.ts';

test('sorts like any sort', () => {
  const input = Array.from({ length: 200 }, (_, i) => (i * 7919) % 211);
  assert.deepEqual(
    postgresSort(input, (a, b) => a - b),
    [...input].sort((a, b) => a - b),
  );
});

test("ties come out in PostgreSQL's order (block 1 of the regtest logs, as the reference listed it)", () => {
  // Boot receipts by tx_index descending, then the block's own txs likewise (their heap order).
  const boot = [['cba', 7], ['b38', 6], ['55b', 5], ['d31', 4], ['e07', 3], ['6c7', 2], ['fc8', 1]] as const;
  const own = [['9f9', 3], ['156', 2], ['1be', 1], ['ef1', 0]] as const;
  const input = [...boot, ...own];
  const asc = postgresSort(input, (a, b) => a[1] - b[1]).map((t) => t[0]);
  assert.deepEqual(asc, ['ef1', 'fc8', '1be', '6c7', '156', '9f9', 'e07', 'd31', '55b', 'b38', 'cba']);
  // The same rows sorted descending, as the reference's /extended/v1/block lists them.
  const desc = postgresSort(input, (a, b) => b[1] - a[1]).map((t) => t[0]);
  assert.deepEqual(desc, ['cba', 'b38', '55b', 'd31', '9f9', 'e07', '6c7', '156', '1be', 'fc8', 'ef1']);
});
