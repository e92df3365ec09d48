// Blocks that took part in microblock streams are answered from the serving store (they went to
// ClickHouse before, at 30-100 ms each). That the answers equal ClickHouse's is serving.test.ts's
// check; this test shows they come from the store, on a recorded log with microblock streams.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importedServingStore } from '../../testing/serving.ts';
import { ServingView } from '../../serving/view.ts';
import { bytesHex } from '../../serving/bytes.ts';
import { blockByIndexHash, blockTxsJson, blockV1, blockV1Text, touchesMicroblocks } from './served.ts';

async function checkBlocks(fixture: string): Promise<{ touched: number; withAccepted: number; asText: number }> {
  const { store } = await importedServingStore(fixture, 'served-blocks-');
  try {
    const s = { store, view: new ServingView(store).load() };
    let touched = 0;
    let withAccepted = 0;
    let asText = 0;
    for (const key of store.blockIndex.getKeys()) {
      const b = blockByIndexHash(s, bytesHex(key as Buffer))!;
      // The block list's text, written from the record, is the document path's answer to the byte.
      const text = blockV1Text(s, b.index_block_hash);
      if (text !== undefined) {
        asText++;
        assert.equal(text, JSON.stringify(blockV1(s, b)), `block ${b.block_height}'s v1 text`);
      } else assert.ok(!b.canonical || touchesMicroblocks(s, b), `block ${b.block_height} has its v1 text`);
      if (!b.canonical || !touchesMicroblocks(s, b)) continue;
      touched++;
      const v1 = blockV1(s, b) as { txs: string[]; microblocks_accepted: string[]; microblock_tx_count: Record<string, number> } | undefined;
      assert.ok(v1, `block ${b.block_height} answered from the store`);
      const accepted = new Set(v1.microblocks_accepted);
      if (accepted.size > 0) withAccepted++;
      // Every tx of an accepted microblock is listed, and each accepted microblock's count is its txs here.
      const fromAccepted = b.tx_ids.filter((_, i) => accepted.has(b.tx_microblock_hashes[i]));
      for (const id of fromAccepted) assert.ok(v1.txs.includes(id), `${id} of an accepted microblock is in block ${b.block_height}`);
      assert.equal(Object.values(v1.microblock_tx_count).reduce((a, n) => a + n, 0), fromAccepted.length);
      if (b.pids.every((pid) => pid >= 0) && b.tx_count > 0) {
        const page = blockTxsJson(s, b, 50, 0);
        assert.ok(page, `block ${b.block_height}'s txs answered from the store`);
        const ids = page.map((t) => (JSON.parse(t) as { tx_id: string }).tx_id);
        for (const id of fromAccepted.slice(0, 50)) assert.ok(ids.includes(id), `${id} in block ${b.block_height}'s v2 txs`);
      }
    }
    return { touched, withAccepted, asText };
  } finally {
    await store.close();
  }
}

test('canonical blocks touched by microblock streams: v1 block and v2 block txs from the store', async () => {
  const streams = await checkBlocks('mainnet-out-of-order-microblock.tsv');
  assert.ok(streams.touched > 0, 'the log has blocks touched by microblock streams');
  assert.ok(streams.withAccepted > 0, 'and blocks that accepted microblocks');
  // Blocks outside any stream (Nakamoto-era regtest) are the block list's text path.
  const plain = await checkBlocks('regtest-env-pox-4-out-of-order-multisig-tx.tsv');
  assert.ok(plain.asText > 0, 'blocks answered as text');
});
