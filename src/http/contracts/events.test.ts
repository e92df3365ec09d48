// A contract's print events after a reorg re-mined some of their txs, on the fork fixture: block 4
// holds prints from an anchored tx (also mined in the orphaned 2a) and from microblock txs of
// sequences 0 and 1. The reference (pg-store getSmartContractEvents) lists canonical rows ORDER BY
// block_height DESC, microblock_sequence DESC, tx_index DESC, event_index DESC, where an anchored tx
// has the highest sequence (2147483647): the anchored tx first, then sequence 1, then sequence 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forkService } from '../../testing/fork-service.ts';
import { FORK } from '../../testing/fork-fixture.ts';

test('contract events: canonical placements newest first by height, microblock sequence, tx index, event index', async () => {
  const svc = await forkService();
  try {
    const page = async (q: string) => ((await (await fetch(`${svc.apiUrl}/extended/v1/contract/${FORK.printer}/events${q}`)).json()) as { results: Array<{ tx_id: string; contract_log: { value: { repr: string } } }> }).results;
    const order = [FORK.txRemined, FORK.txMicroblock1, FORK.txMicroblock0];
    assert.deepEqual((await page('')).map((e) => [e.tx_id, e.contract_log.value.repr]), [[order[0], 'u4'], [order[1], 'u6'], [order[2], 'u5']]);
    // Pages split the same order.
    assert.deepEqual((await page('?limit=1&offset=1')).map((e) => e.tx_id), [order[1]]);
    assert.deepEqual((await page('?limit=2&offset=1')).map((e) => e.tx_id), order.slice(1));
  } finally {
    await svc.stop();
  }
});
