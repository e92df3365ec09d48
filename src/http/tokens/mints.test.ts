// An NFT asset's mints after a reorg re-mined one of their txs, on the fork fixture: block 4 mints
// from an anchored tx (also mined in the orphaned 2a) and from a microblock tx of sequence 1. The
// reference (pg-store getNftMints, joined with the tx's canonical row) orders ORDER BY
// nft.block_height DESC, txs.microblock_sequence DESC, txs.tx_index DESC, nft.event_index DESC, an
// anchored tx's sequence being the highest (2147483647); getNftHistory orders the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forkService } from '../../testing/fork-service.ts';
import { FORK } from '../../testing/fork-fixture.ts';

test('NFT mints: canonical placements newest first by height, microblock sequence, tx index, event index', async () => {
  const svc = await forkService();
  try {
    const mints = async (q: string) => (await (await fetch(`${svc.apiUrl}/extended/v1/tokens/nft/mints?asset_identifier=${FORK.nftAsset}${q}`)).json()) as { total: number; results: Array<{ tx_id: string; value: { repr: string } }> };
    const all = await mints('');
    assert.equal(all.total, 2);
    assert.deepEqual(all.results.map((m) => [m.tx_id, m.value.repr]), [[FORK.txRemined, 'u1'], [FORK.txMicroblock1, 'u2']]);
    assert.deepEqual((await mints('&limit=1&offset=1')).results.map((m) => m.tx_id), [FORK.txMicroblock1]);
  } finally {
    await svc.stop();
  }
});
