// The official client (@stacks/blockchain-api-client, unchanged) against our server: address
// balances and transactions of a generated chain come back typed and with the expected values.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '@stacks/blockchain-api-client';
import { startService, waitForProcessing, type RunningService } from '../../testing/service.ts';
import { buildSyntheticChain, newestFirst, postBlocks, type SyntheticChain } from './testing/synthetic-chain.ts';

let svc: RunningService;
let chain: SyntheticChain;
let client: ReturnType<typeof createClient>;

before(async () => {
  chain = await buildSyntheticChain({ blocks: 6, txsPerBlock: 10 });
  svc = await startService();
  await postBlocks(svc.eventUrl, chain.blocks);
  await waitForProcessing(svc.apiUrl);
  client = createClient({ baseUrl: svc.apiUrl });
});

after(async () => {
  await svc?.stop();
});

const spent = () => chain.txs.reduce((a, t) => a + t.amount + t.fee, 0n);

test('balances through the client', async () => {
  const principal = chain.sender;
  const v1 = await client.GET('/extended/v1/address/{principal}/balances', { params: { path: { principal } } });
  assert.equal(v1.response.status, 200);
  assert.equal(v1.data?.stx.balance, (chain.minted - spent()).toString());
  assert.equal(v1.data?.stx.total_fees_sent, chain.txs.reduce((a, t) => a + t.fee, 0n).toString());
  assert.equal(v1.data?.stx.locked, '0');
  assert.deepEqual(v1.data?.fungible_tokens, {});

  const stx = await client.GET('/extended/v1/address/{principal}/stx', { params: { path: { principal }, query: { until_block: '3' } } });
  const upTo3 = chain.txs.filter((t) => t.block_height <= 3).reduce((a, t) => a + t.amount + t.fee, 0n);
  assert.equal(stx.data?.balance, (chain.minted - upTo3).toString());
  assert.equal(stx.data?.estimated_balance, undefined);

  const v2 = await client.GET('/extended/v2/addresses/{principal}/balances/stx', { params: { path: { principal }, query: { include_mempool: true } } });
  assert.equal(v2.data?.balance, (chain.minted - spent()).toString());
  assert.equal(v2.data?.estimated_balance, v2.data?.balance);

  const ft = await client.GET('/extended/v2/addresses/{principal}/balances/ft', { params: { path: { principal } } });
  assert.deepEqual([ft.data?.total, ft.data?.limit, ft.data?.results], [0, 100, []]);

  const recipient = chain.recipients[1];
  const received = chain.txs.filter((t) => t.recipient === recipient).reduce((a, t) => a + t.amount, 0n);
  const r = await client.GET('/extended/v1/address/{principal}/stx', { params: { path: { principal: recipient } } });
  assert.equal(r.data?.total_received, received.toString());

  const nonces = await client.GET('/extended/v1/address/{principal}/nonces', { params: { path: { principal } } });
  assert.equal(nonces.data?.possible_next_nonce, chain.txs.length);

  const bad = await client.GET('/extended/v1/address/{principal}/stx', { params: { path: { principal: 'not-a-principal' } } });
  assert.equal(bad.response.status, 400);
});

test('transactions through the client', async () => {
  const principal = chain.sender;
  const expected = newestFirst(chain.txs);
  const v1 = await client.GET('/extended/v1/address/{principal}/transactions', { params: { path: { principal }, query: { limit: 7, offset: 3 } } });
  assert.equal(v1.response.status, 200);
  assert.equal(v1.data?.total, chain.txs.length);
  assert.deepEqual(v1.data?.results.map((t) => t.tx_id), expected.slice(3, 10).map((t) => t.tx_id));
  const first = v1.data?.results[0];
  assert.equal(first?.tx_type, 'token_transfer');
  if (first?.tx_type === 'token_transfer') assert.equal(first.token_transfer.amount, expected[3].amount.toString());

  const v2 = await client.GET('/extended/v2/addresses/{address}/transactions', { params: { path: { address: principal }, query: { limit: 5 } } });
  assert.equal(v2.data?.total, chain.txs.length);
  assert.deepEqual(v2.data?.results.map((r) => r.stx_sent), expected.slice(0, 5).map((t) => (t.amount + t.fee).toString()));

  const one = expected[12];
  const wt = await client.GET('/extended/v1/address/{principal}/{tx_id}/with_transfers', { params: { path: { principal: one.recipient, tx_id: one.tx_id } } });
  assert.equal(wt.response.status, 200);
  assert.equal(wt.data?.stx_received, one.amount.toString());
  assert.deepEqual(wt.data?.stx_transfers, [{ amount: one.amount.toString(), sender: principal, recipient: one.recipient }]);

  const events = await client.GET('/extended/v2/addresses/{address}/transactions/{tx_id}/events', { params: { path: { address: principal, tx_id: one.tx_id } } });
  assert.equal(events.data?.total, 1);
  assert.equal(events.data?.results[0].type, 'stx');
});
