// A batch's serving write runs beside the next batch's ClickHouse insert, so ClickHouse is ahead of
// the serving store for much of every batch. The store still answers what it holds then: txs
// processed earlier are read from it, with no ClickHouse query, while later batches are stored.
// (Each serving write is held open here, STACKS_API_TEST_STORE_DELAY_MS, to make that window long.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED, startService, waitForProcessing } from '../testing/service.ts';
import { parseTsvLine } from '../ingest/tsv/copy-text.ts';

/** ClickHouse queries made so far for the transactions family's routes. */
async function transactionQueries(apiUrl: string): Promise<number> {
  const text = await (await fetch(`${apiUrl}/metrics`)).text();
  return [...text.matchAll(/^stacks_clickhouse_query_duration_seconds_count\{family="transactions",[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

test('while later batches are stored, txs processed earlier come from the serving store', { timeout: 300_000 }, async () => {
  const rows = readFileSync(join(SHARED, 'fixtures', 'fuzzed-transactions-1.tsv'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => parseTsvLine(l)!);
  const half = Math.floor(rows.length / 2);
  const post = async (r: (typeof rows)[number]) => assert.equal((await fetch(svc.eventUrl + r.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: r.payload })).status, 200);
  const svc = await startService({ env: { STACKS_API_TEST_STORE_DELAY_MS: '300', STACKS_API_LIVE_BATCH_MS: '50', STACKS_API_RESPONSE_CACHE_MB: '0' } });
  try {
    for (const r of rows.slice(0, half)) await post(r);
    await waitForProcessing(svc.apiUrl);
    const early = rows.slice(0, half).filter((r) => r.path === '/new_block').flatMap((r) => (JSON.parse(r.payload) as { transactions: Array<{ txid: string }> }).transactions.map((t) => t.txid));
    assert.ok(early.length >= 5, `${early.length} txs in the first half`);
    const before = await transactionQueries(svc.apiUrl);
    let feeding = true;
    const feed = (async () => {
      for (const r of rows.slice(half)) await post(r);
      await waitForProcessing(svc.apiUrl);
      feeding = false;
    })();
    let reads = 0;
    while (feeding) {
      const id = early[reads++ % early.length];
      const res = await fetch(`${svc.apiUrl}/extended/v1/tx/${id}`);
      assert.equal(res.status, 200, id);
      await res.arrayBuffer();
    }
    await feed;
    const batches = Number(/^stacks_ingest_batches_total (\d+)/m.exec(await (await fetch(`${svc.apiUrl}/metrics`)).text())?.[1]);
    assert.ok(reads > 50, `${reads} reads while ingesting`);
    assert.equal(await transactionQueries(svc.apiUrl), before, `none of the ${reads} reads went to ClickHouse (${batches} batches stored)`);
  } finally {
    await svc.stop();
  }
});
