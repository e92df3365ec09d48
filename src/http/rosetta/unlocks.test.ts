// PoX unlocks on a Nakamoto chain whose stackers extend their locks every cycle (the recorded
// stackerdb-sample-events log: three signers stack at burn 110 until 140 and stack-extend at burn
// 121 to 160). The reference (pg-store internalGetUnlockedAccountsAtHeight) lists, on the coinbase
// of the block whose burn range (its parent's burn height, its own] holds a lock's unlock height,
// every stacker whose newest operation *among those ending in that range* ends there — also when a
// later stack-extend keeps the STX locked. Block 98 (burn 139 → 140) so shows its Nakamoto coinbase
// with 4 operations: the coinbase and 3 stx_unlock. Those STX stay locked: the block's correcting
// transaction (other_transactions) locks them again, so balances still add up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHARED, startService } from '../../testing/service.ts';
import { editedFeed } from '../../testing/edited-feed.ts';
import { rosettaPost, type RosettaOp as Op, type RosettaTx as Tx } from '../../testing/rosetta-mesh-check.ts';

const BLOCK_98 = 1039;
const STACKERS = [
  { address: 'ST3AM1A56AK2C1XAFJ4115ZSV26EB49BVQ10MGCS0', locked: '4125240000000000' },
  { address: 'ST3NBRSFKX28FQ2ZJ1MAKX58HKHSDGNV5N7R21XCP', locked: '1375080000000000' },
  { address: 'ST3PF13W7Z0RRM42A8VZRVFQ75SV1K26RXEP8YGKJ', locked: '2750160000000000' },
];


test('Nakamoto coinbase at a lock\'s first unlock height lists the extended stackers\' unlocks, as the reference; the correcting transaction locks them again', { timeout: 600_000 }, async () => {
  const svc = await startService({ env: { STACKS_CHAIN_ID: '0x80000000' } });
  const problems: string[] = [];
  const post = async <T>(path: string, body: Record<string, unknown>) => {
    const r = await rosettaPost<T>(svc.apiUrl, `/rosetta/v1${path}`, { network_identifier: { blockchain: 'stacks', network: 'testnet' }, ...body }, problems);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  try {
    await (await editedFeed(svc, join(SHARED, 'fixtures', 'stackerdb-sample-events.tsv.gz'), () => {}))(BLOCK_98);
    const answer = await post<{ block: { block_identifier: { index: number }; transactions: Tx[] }; other_transactions?: Array<{ hash: string }> }>('/block', { block_identifier: { index: 98 } });
    const coinbase = answer.block.transactions.find((t) => t.operations[0].type === 'coinbase')!;
    assert.deepEqual(
      coinbase.operations.map((o) => [o.type, o.account?.address, o.amount?.value, o.metadata?.tx_id]),
      [['coinbase', coinbase.operations[0].account?.address, undefined, undefined], ...STACKERS.map((s) => ['stx_unlock', s.address, s.locked, coinbase.transaction_identifier.hash])],
    );
    assert.equal(answer.other_transactions?.length, 1);
    const correction = (await post<{ transaction: Tx }>('/block/transaction', { block_identifier: answer.block.block_identifier, transaction_identifier: answer.other_transactions![0] })).transaction;
    assert.deepEqual(correction.operations.map((o) => [o.type, o.account?.address, o.amount?.value]), STACKERS.map((s) => ['stx_lock', s.address, `-${s.locked}`]));
    // Still locked: the block leaves their balances as they were.
    for (const s of STACKERS) {
      const balance = async (index: number) => (await post<{ balances: Array<{ value: string }> }>('/account/balance', { account_identifier: { address: s.address }, block_identifier: { index } })).balances[0].value;
      assert.equal(await balance(98), await balance(97), s.address);
    }
    assert.deepEqual(problems, []);
  } finally {
    await svc.stop();
  }
});
