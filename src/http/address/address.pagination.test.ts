// Deep pagination of one busy address: a generated chain where one sender makes 1,200 transfers;
// pages far into its history, totals, and balances as of a height stay exact.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startService, waitForProcessing, type RunningService } from '../../testing/service.ts';
import { buildSyntheticChain, newestFirst, postBlocks, type SyntheticChain } from './testing/synthetic-chain.ts';

const BLOCKS = 30;
const PER_BLOCK = 40;

let svc: RunningService;
let chain: SyntheticChain;

async function get<T = Record<string, unknown>>(path: string): Promise<T> {
  const res = await fetch(`${svc.apiUrl}${path}`);
  assert.equal(res.status, 200, `${path}: ${res.status} ${await res.clone().text()}`);
  return (await res.json()) as T;
}

before(async () => {
  chain = await buildSyntheticChain({ blocks: BLOCKS, txsPerBlock: PER_BLOCK });
  svc = await startService();
  await postBlocks(svc.eventUrl, chain.blocks);
  const status = await waitForProcessing(svc.apiUrl);
  assert.equal((status.event_log as { error?: unknown }).error, undefined);
});

after(async () => {
  await svc?.stop();
});

test('v1 /transactions: deep pages hold the right txs and the total', async () => {
  const expected = newestFirst(chain.txs).map((t) => t.tx_id);
  for (const offset of [0, 50, 600, 1150, 1199]) {
    const page = await get<{ total: number; limit: number; offset: number; results: Array<{ tx_id: string }> }>(
      `/extended/v1/address/${chain.sender}/transactions?limit=50&offset=${offset}`,
    );
    assert.equal(page.total, expected.length, `total at offset ${offset}`);
    assert.deepEqual(page.results.map((r) => r.tx_id), expected.slice(offset, offset + 50), `page at offset ${offset}`);
  }
  // Past the end: no rows, and (as the reference counts with the rows) total 0.
  const past = await get<{ total: number; results: unknown[] }>(`/extended/v1/address/${chain.sender}/transactions?limit=50&offset=1200`);
  assert.deepEqual([past.total, past.results.length], [0, 0]);
});

test('v2 /transactions, with_transfers and assets: deep pages and totals', async () => {
  const expected = newestFirst(chain.txs);
  const v2 = await get<{ total: number; results: Array<{ tx: { tx_id: string }; stx_sent: string; events: { stx: { transfer: number } } }> }>(
    `/extended/v2/addresses/${chain.sender}/transactions?limit=20&offset=1000`,
  );
  assert.equal(v2.total, expected.length);
  assert.deepEqual(v2.results.map((r) => r.tx.tx_id), expected.slice(1000, 1020).map((t) => t.tx_id));
  const t = expected[1000];
  assert.equal(v2.results[0].stx_sent, (t.amount + t.fee).toString());
  assert.equal(v2.results[0].events.stx.transfer, 1);

  const wt = await get<{ total: number; results: Array<{ tx: { tx_id: string }; stx_transfers: Array<{ amount: string }> }> }>(
    `/extended/v1/address/${chain.sender}/transactions_with_transfers?limit=50&offset=900`,
  );
  assert.equal(wt.total, expected.length);
  assert.deepEqual(wt.results.map((r) => r.tx.tx_id), expected.slice(900, 950).map((x) => x.tx_id));
  assert.equal(wt.results[0].stx_transfers[0].amount, expected[900].amount.toString());

  // One mint plus one transfer event per tx.
  const assets = await get<{ total: number; results: Array<{ tx_id: string; event_type: string }> }>(`/extended/v1/address/${chain.sender}/assets?limit=100&offset=1101`);
  assert.equal(assets.total, expected.length + 1);
  assert.deepEqual(assets.results.map((r) => r.tx_id), [...expected.slice(1101).map((x) => x.tx_id), chain.txs[0].tx_id]);
  assert.equal(assets.results.at(-1)?.event_type, 'stx_asset');

  const recipient = chain.recipients[0];
  const inbound = newestFirst(chain.txs.filter((x) => x.recipient === recipient));
  const page = await get<{ total: number; results: Array<{ tx_id: string; amount: string }> }>(`/extended/v1/address/${recipient}/stx_inbound?limit=50&offset=550`);
  assert.equal(page.total, inbound.length);
  assert.deepEqual(page.results.map((r) => r.tx_id), inbound.slice(550, 600).map((x) => x.tx_id));
});

test('balances at the tip and as of a height; nonces', async () => {
  const sum = (upTo: number) => chain.txs.filter((t) => t.block_height <= upTo).reduce((a, t) => ({ sent: a.sent + t.amount, fees: a.fees + t.fee }), { sent: 0n, fees: 0n });
  for (const [query, height] of [['', BLOCKS], [`?until_block=${BLOCKS / 2}`, BLOCKS / 2]] as const) {
    const { sent, fees } = sum(height);
    const stx = await get<Record<string, string>>(`/extended/v1/address/${chain.sender}/stx${query}`);
    assert.equal(stx.total_sent, sent.toString(), `total_sent${query}`);
    assert.equal(stx.total_fees_sent, fees.toString(), `total_fees_sent${query}`);
    assert.equal(stx.total_received, chain.minted.toString());
    assert.equal(stx.balance, (chain.minted - sent - fees).toString(), `balance${query}`);
  }
  const v2 = await get<{ balance: string }>(`/extended/v2/addresses/${chain.sender}/balances/stx`);
  const all = sum(BLOCKS);
  assert.equal(v2.balance, (chain.minted - all.sent - all.fees).toString());
  const nonces = await get<Record<string, unknown>>(`/extended/v1/address/${chain.sender}/nonces`);
  assert.equal(nonces.last_executed_tx_nonce, chain.txs.length - 1);
  assert.equal(nonces.possible_next_nonce, chain.txs.length);
  const atHeight = await get<Record<string, unknown>>(`/extended/v1/address/${chain.sender}/nonces?block_height=10`);
  assert.equal(atHeight.last_executed_tx_nonce, 10 * PER_BLOCK - 1);
});
