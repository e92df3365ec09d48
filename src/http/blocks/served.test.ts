// Blocks that took part in microblock streams are answered from the serving store (they went to
// ClickHouse before, at 30-100 ms each). That the answers equal ClickHouse's is serving.test.ts's
// check; this test shows they come from the store, on a recorded log with microblock streams.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importedServingStore } from '../../testing/serving.ts';
import { ServingView } from '../../serving/view.ts';
import { bytesHex } from '../../serving/bytes.ts';
import { placedDocOf } from '../../serving/reads.ts';
import { minedTxJson } from '../tx/served.ts';
import { blockByIndexHash, blockTxPids, blockTxsPage, blockV1, blockV1Text, touchesMicroblocks } from './served.ts';

async function checkBlocks(fixture: string): Promise<{ touched: number; withAccepted: number; asText: number; pages: number }> {
  const { store } = await importedServingStore(fixture, 'served-blocks-');
  try {
    const s = { store, view: new ServingView(store).load() };
    let touched = 0;
    let withAccepted = 0;
    let asText = 0;
    let pages = 0;
    const bodyOfTag = new Map<string, string>();
    for (const key of store.blockIndex.getKeys()) {
      const b = blockByIndexHash(s, bytesHex(key as Buffer))!;
      // The v2 txs page, written as bytes from the stored bodies, is the decoded documents' text.
      if (b.canonical && b.pids.every((pid) => pid >= 0)) {
        for (const [limit, offset] of [[50, 0], [2, 1]]) {
          const pids = blockTxPids(s, b).slice(offset, offset + limit);
          const page = blockTxsPage(s, b, limit, offset);
          if (pids.length === 0) {
            assert.equal(page, null, `block ${b.block_height}: an empty page`);
            continue;
          }
          const items = pids.map((pid) => minedTxJson(s, placedDocOf(store, pid)!, { withAbi: false }));
          assert.deepEqual(page && Buffer.from(page.body), Buffer.from(`{"limit":${limit},"offset":${offset},"total":${b.tx_count},"results":[${items.join(',')}]}`), `block ${b.block_height}'s page, byte for byte`);
          // A page's identity tag is its alone: two pages with one tag are the same bytes.
          const seen = bodyOfTag.get(page!.etag!);
          if (seen) assert.deepEqual(seen, page!.text, `the tag of block ${b.block_height}'s page`);
          bodyOfTag.set(page!.etag!, page!.text);
          pages++;
        }
      }
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
        const page = blockTxsPage(s, b, 50, 0);
        assert.ok(page, `block ${b.block_height}'s txs answered from the store`);
        const ids = (JSON.parse(page.text) as { results: Array<{ tx_id: string }> }).results.map((t) => t.tx_id);
        for (const id of fromAccepted.slice(0, 50)) assert.ok(ids.includes(id), `${id} in block ${b.block_height}'s v2 txs`);
      }
    }
    assert.equal(bodyOfTag.size, pages, 'every page has a tag of its own');
    return { touched, withAccepted, asText, pages };
  } finally {
    await store.close();
  }
}

test('canonical blocks touched by microblock streams: v1 block and v2 block txs from the store; v2 txs pages as bytes equal the documents\' text', async () => {
  const streams = await checkBlocks('mainnet-out-of-order-microblock.tsv');
  assert.ok(streams.touched > 0, 'the log has blocks touched by microblock streams');
  assert.ok(streams.withAccepted > 0, 'and blocks that accepted microblocks');
  assert.ok(streams.pages > 0, 'v2 txs pages compared');
  // Blocks outside any stream (Nakamoto-era regtest) are the block list's text path.
  const plain = await checkBlocks('regtest-env-pox-4-out-of-order-multisig-tx.tsv');
  assert.ok(plain.asText > 0, 'blocks answered as text');
  assert.ok(plain.pages > 0, 'v2 txs pages compared');
});
