// A mined, canonical tx's answer is cached across new blocks (it only changes with a reorg), and a
// reorg drops it: on the reorg fixture, txs first mined in a block that is later orphaned are
// answered from their new canonical block, exactly as an uncached request answers them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startService, waitForProcessing, SHARED } from '../../testing/service.ts';
import { parseTsvLine } from '../../ingest/tsv/copy-text.ts';

const rows = readFileSync(join(SHARED, 'fixtures', 'mainnet-reorg-scenario2.tsv'), 'utf8').split('\n').map(parseTsvLine).filter((r) => r !== null);

type Tx = { tx_id: string; block_hash: string; index_block_hash?: string; canonical: boolean };

test('a cached canonical tx answer survives new blocks and is dropped by a reorg', async () => {
  const svc = await startService();
  const feed = async (part: typeof rows) => {
    for (const r of part) {
      const res = await fetch(svc.eventUrl + r.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: r.payload });
      assert.equal(res.status, 200);
    }
    await waitForProcessing(svc.apiUrl);
  };
  const getTx = async (id: string, query = '') => (await (await fetch(`${svc.apiUrl}/extended/v1/tx/${id}${query}`)).json()) as Tx;
  try {
    // Up to the first block at height 2, which the next blocks orphan.
    const firstHeight2 = rows.findIndex((r) => r.path === '/new_block' && (JSON.parse(r.payload) as { block_height: number }).block_height === 2);
    await feed(rows.slice(0, firstHeight2 + 1));
    const orphanedBlock = JSON.parse(rows[firstHeight2].payload) as { index_block_hash: string; transactions: Array<{ txid: string }> };
    const ids = orphanedBlock.transactions.map((t) => t.txid);
    const before = new Map<string, Tx>();
    for (const id of ids) {
      const tx = await getTx(id);
      assert.equal(tx.canonical, true);
      before.set(id, tx);
      assert.deepEqual(await getTx(id), tx, 'answered again the same (from the cache)');
    }

    await feed(rows.slice(firstHeight2 + 1));
    let moved = 0;
    for (const id of ids) {
      const cachedPath = await getTx(id);
      // Another query string is another cache key: computed from the store now.
      const fresh = await getTx(id, '?event_offset=0');
      assert.deepEqual(cachedPath, fresh, `${id}: the answer after the reorg is the store's`);
      if (fresh.block_hash !== before.get(id)!.block_hash) moved++;
    }
    assert.ok(moved > 0, 'the reorg moved txs that had been cached');
  } finally {
    await svc.stop();
  }
});
