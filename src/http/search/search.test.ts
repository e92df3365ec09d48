// Search for txs more than one fork mined, on the fork fixture (src/testing/fork-fixture.ts). The
// reference (pg-store searchHash) answers `SELECT … FROM txs WHERE tx_id = $1 LIMIT 1`, read
// through the unique index (tx_id, index_block_hash, microblock_hash): the placement with the lowest
// index block hash, orphaned or not. With metadata (searchHashWithMetadata → getTxListDetails) it
// answers the canonical placement, as /extended/v1/tx/:id does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forkService } from '../../testing/fork-service.ts';
import { FORK } from '../../testing/fork-fixture.ts';

test('search answers the placement first in the reference\'s index of txs; with metadata the canonical one', async () => {
  const svc = await forkService();
  try {
    const get = async (path: string) => (await (await fetch(`${svc.apiUrl}${path}`)).json()) as { result: { tx_data: Record<string, unknown>; metadata?: { block_hash: string } } };
    const orphaned2a = { canonical: false, block_hash: FORK.block2a.hash, block_height: 2, burn_block_time: FORK.block2a.burnTime };
    // Mined in 2a (orphaned, the lower index hash) and again in block 4.
    for (const [txId, tx_type] of [[FORK.txCoinbaseRemined, 'coinbase'], [FORK.txRemined, 'contract_call']]) {
      assert.deepEqual((await get(`/extended/v1/search/${txId}`)).result.tx_data, { ...orphaned2a, tx_type }, txId);
      const withMetadata = (await get(`/extended/v1/search/${txId}?include_metadata=true`)).result;
      assert.deepEqual(withMetadata.tx_data, { canonical: true, block_hash: FORK.block4.hash, block_height: 4, burn_block_time: 1627663220, tx_type });
      assert.equal(withMetadata.metadata?.block_hash, FORK.block4.hash);
    }
    // Streamed, accepted by 2a, included by 2b too: 2b's index hash is the lower one.
    const streamed = (await get('/extended/v1/search/0x509364abf2e47790a4abf2bff19d50e00001d9c24dda0f6f5b5154fc4bc29a8b')).result.tx_data;
    assert.deepEqual(streamed, { canonical: true, block_hash: '0x8f77bd15d37346543c64340e79b891b48628e36fcde9ae27d4e5e3f3992b5c8b', block_height: 2, burn_block_time: 1627662250, tx_type: 'contract_call' });
  } finally {
    await svc.stop();
  }
});
