// A block whose parent is not stored is held: never canonical, reported in /extended, connected
// when its parent arrives (and canonical then if its branch is the tallest).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED, startService, waitForProcessing } from '../../testing/service.ts';
import { parseTsvLine } from '../tsv/copy-text.ts';

const post = (url: string, body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const rows = () => readFileSync(join(SHARED, 'fixtures', 'fuzzed-transactions-1.tsv'), 'utf8').split('\n').map(parseTsvLine).filter((r) => r !== null);
const heightOf = (payload: string) => (JSON.parse(payload) as { block_height: number }).block_height;

interface Status {
  status: string;
  chain_tip: { block_height: number; index_block_hash: string };
  event_log: { error?: unknown; held_blocks?: { count: number; blocks: Array<{ index_block_hash: string; block_height: number }> } };
}

// Also with no heights kept in memory below the tip and every entry its own batch (chain-load.ts):
// held blocks stay in memory, what is connected to them is read back.
const MEMORY: Array<{ name: string; env: Record<string, string> }> = [
  { name: '', env: {} },
  { name: ' (no heights kept below the tip)', env: { STACKS_API_CHAIN_STATE_HEIGHTS: '0', STACKS_API_LIVE_BATCH_MS: '0' } },
];

for (const { name, env } of MEMORY) test(`a block whose parent is not stored is held, never canonical, and connected when its parent arrives${name}`, { timeout: 300_000 }, async () => {
  const all = rows();
  const blockRow = (h: number) => all.find((r) => r.path === '/new_block' && heightOf(r.payload) === h)!;
  // A stray block 1,000 above the tip, hanging off a block nobody has.
  const stray = JSON.parse(blockRow(4).payload) as Record<string, unknown>;
  Object.assign(stray, { block_height: 1004, index_block_hash: `0x${'e1'.repeat(32)}`, block_hash: `0x${'e2'.repeat(32)}`, parent_index_block_hash: `0x${'e3'.repeat(32)}`, transactions: [], events: [] });
  // Deliver block 6 before block 5, and the stray block after block 4.
  const five = blockRow(5);
  const six = blockRow(6);
  const order = all.filter((r) => r !== five && r !== six).flatMap((r) => (r === blockRow(4) ? [r, { ...r, payload: JSON.stringify(stray) }, six] : r === blockRow(7) ? [five, r] : [r]));
  const svc = await startService({ env });
  const dataDir = svc.dataDir;
  try {
    for (const r of order) {
      assert.equal((await post(svc.eventUrl + r.path, r.payload)).status, 200);
      if (r === six) {
        // Block 6 waits for block 5; the stray block does not become the tip.
        const s = (await waitForProcessing(svc.apiUrl)) as unknown as Status;
        assert.equal(s.chain_tip.block_height, 4);
        assert.equal(s.event_log.held_blocks?.count, 2);
        assert.deepEqual(s.event_log.held_blocks?.blocks.map((b) => b.block_height), [6, 1004]);
        const sixAnswer = (await (await fetch(`${svc.apiUrl}/extended/v1/block/${JSON.parse(six.payload).block_hash}`)).json()) as { canonical: boolean };
        assert.equal(sixAnswer.canonical, false);
      }
    }
    const s = (await waitForProcessing(svc.apiUrl)) as unknown as Status;
    assert.equal(s.status, 'ready');
    assert.equal(s.event_log.error, undefined);
    assert.equal(s.chain_tip.block_height, 12, 'the real chain is canonical up to its tip');
    assert.deepEqual(s.event_log.held_blocks?.blocks.map((b) => [b.block_height, b.index_block_hash]), [[1004, stray.index_block_hash]]);
    const list = (await (await fetch(`${svc.apiUrl}/extended/v1/block?limit=30`)).json()) as { total: number; results: Array<{ height: number; hash: string }> };
    assert.equal(list.total, 12);
    assert.deepEqual(list.results.map((b) => b.height), [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    const stored = (await (await fetch(`${svc.apiUrl}/extended/v1/block/${stray.block_hash}`)).json()) as { canonical: boolean };
    assert.equal(stored.canonical, false, 'the held block is stored, not canonical');
  } finally {
    await svc.stop();
  }
  // After a restart the held block is still held (found again from the stored blocks).
  const again = await startService({ dataDir, env });
  try {
    const s = (await waitForProcessing(again.apiUrl)) as unknown as Status;
    assert.equal(s.chain_tip.block_height, 12);
    assert.equal(s.event_log.held_blocks?.count, 1);
  } finally {
    await again.stop();
  }
});
