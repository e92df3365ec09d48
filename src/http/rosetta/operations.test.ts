// Rosetta operations of a sponsored send-many-memo call (the fork fixture's block 5), as the
// reference builds them (rosetta-helpers getOperations): the fee operation names the tx's
// sender_address (the origin, whoever paid), and each STX transfer of a call to the network's
// send-many-memo contract carries, on both its operations, `metadata.memo`: the UTF-8 text of the
// memo argument for that transfer (processEvents, decodeSendManyContractCallMemos). The fee the
// sponsor paid is moved to it by the block's correcting transaction (other_transactions), so every
// account's operations still add up to its balance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forkService } from '../../testing/fork-service.ts';
import { FORK } from '../../testing/fork-fixture.ts';
import { rosettaPost, type RosettaOp as Op, type RosettaTx as Tx } from '../../testing/rosetta-mesh-check.ts';


const network_identifier = { blockchain: 'stacks', network: 'mainnet' };

test('a sponsored send-many-memo call: the fee on the origin, memos on the transfers, the sponsor charged by the correcting transaction', async () => {
  const svc = await forkService();
  const problems: string[] = [];
  const post = async <T>(path: string, body: Record<string, unknown>) => {
    const r = await rosettaPost<T>(svc.apiUrl, `/rosetta/v1${path}`, { network_identifier, ...body }, problems);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  try {
    const answer = await post<{ block: { block_identifier: unknown; transactions: Tx[] }; other_transactions?: Array<{ hash: string }> }>('/block', { block_identifier: { index: 5 } });
    const [tx] = answer.block.transactions;
    const { origin, sponsor, fee } = FORK.sendMany;
    const [one, two] = FORK.transfers;
    const ops = tx.operations.map((o) => ({ type: o.type, address: o.account?.address, value: o.amount?.value, memo: o.metadata?.memo }));
    assert.deepEqual(ops, [
      { type: 'fee', address: origin, value: `-${fee}`, memo: undefined },
      { type: 'contract_call', address: origin, value: undefined, memo: undefined },
      { type: 'token_transfer', address: origin, value: `-${one.amount}`, memo: one.memo },
      { type: 'token_transfer', address: one.recipient, value: `${one.amount}`, memo: one.memo },
      { type: 'token_transfer', address: origin, value: `-${two.amount}`, memo: two.memo },
      { type: 'token_transfer', address: two.recipient, value: `${two.amount}`, memo: two.memo },
    ]);
    // The same from /block/transaction.
    const single = await post<{ transaction: Tx }>('/block/transaction', { block_identifier: answer.block.block_identifier, transaction_identifier: tx.transaction_identifier });
    assert.deepEqual(single.transaction.operations, tx.operations);

    // The correcting transaction moves the fee from the origin to the sponsor.
    assert.equal(answer.other_transactions?.length, 1);
    const correction = (await post<{ transaction: Tx }>('/block/transaction', { block_identifier: answer.block.block_identifier, transaction_identifier: answer.other_transactions![0] })).transaction;
    assert.deepEqual(correction.operations.map((o) => [o.type, o.account?.address, o.amount?.value]), [['fee', origin, `${fee}`], ['fee', sponsor, `-${fee}`]]);
    // So each account's operations in block 5 add up to its balance change.
    const balance = async (address: string, index: number) => BigInt((await post<{ balances: Array<{ value: string }> }>('/account/balance', { account_identifier: { address }, block_identifier: { index } })).balances[0].value);
    for (const address of [origin, sponsor, one.recipient, two.recipient]) {
      const sum = [...tx.operations, ...correction.operations].filter((o) => o.account?.address === address && o.amount).reduce((s, o) => s + BigInt(o.amount!.value), 0n);
      assert.equal((await balance(address, 5)) - (await balance(address, 4)), sum, address);
    }
    assert.deepEqual(problems, []);
  } finally {
    await svc.stop();
  }
});
