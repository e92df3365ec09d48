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

test('without the response cache, answers after a reorg come from the canonical blocks: the tx, its events, its sender\'s list', async () => {
  const svc = await startService({ env: { STACKS_API_RESPONSE_CACHE_MB: '0' } });
  const feed = async (part: typeof rows) => {
    for (const r of part) assert.equal((await fetch(svc.eventUrl + r.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: r.payload })).status, 200);
    await waitForProcessing(svc.apiUrl);
  };
  const get = async <T>(path: string) => (await (await fetch(svc.apiUrl + path)).json()) as T;
  try {
    const firstHeight2 = rows.findIndex((r) => r.path === '/new_block' && (JSON.parse(r.payload) as { block_height: number }).block_height === 2);
    await feed(rows.slice(0, firstHeight2 + 1));
    const orphaned = JSON.parse(rows[firstHeight2].payload) as { block_hash: string; transactions: Array<{ txid: string }> };
    for (const { txid } of orphaned.transactions) assert.equal((await get<Tx>(`/extended/v1/tx/${txid}`)).block_hash, orphaned.block_hash);

    await feed(rows.slice(firstHeight2 + 1));
    let withEvents = 0;
    assert.equal((await get<{ canonical: boolean }>(`/extended/v1/block/${orphaned.block_hash}`)).canonical, false, 'the block was orphaned');
    for (const { txid } of orphaned.transactions) {
      const tx = await get<Tx & { error?: string; sender_address: string }>(`/extended/v1/tx/${txid}`);
      if (tx.error) continue; // not mined again (back in the mempool or gone)
      assert.notEqual(tx.block_hash, orphaned.block_hash, `${txid} is not answered from the orphaned block`);
      assert.equal((await get<{ canonical: boolean }>(`/extended/v1/block/${tx.block_hash}`)).canonical, true, `${txid}: its block is canonical`);
      // Events of the canonical placement only: the orphaned block's copies would repeat them.
      const { events } = await get<{ events: Array<{ event_index: number }> }>(`/extended/v1/tx/events?tx_id=${txid}&limit=100`);
      const indexes = events.map((e) => e.event_index);
      assert.equal(new Set(indexes).size, indexes.length, `${txid}: no event listed twice`);
      withEvents += indexes.length > 0 ? 1 : 0;
      // Address lists: once, from the canonical placement.
      const { results } = await get<{ results: Array<{ tx_id: string; block_hash: string }> }>(`/extended/v1/address/${tx.sender_address}/transactions?limit=50`);
      const mine = results.filter((r) => r.tx_id === txid);
      assert.deepEqual(mine.map((r) => r.block_hash), [tx.block_hash], `${txid} listed once for its sender, from its canonical block`);
    }
    assert.ok(withEvents > 0, 'some re-mined tx has events');
  } finally {
    await svc.stop();
  }
});
