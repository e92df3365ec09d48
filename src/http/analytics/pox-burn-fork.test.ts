// A burn-chain fork in /pox/cycles: when a second burn block arrives at a height already seen, the
// one received last is canonical, so the cycle's BTC rewards count its payouts and no longer the
// replaced block's. The answer, read before and after, equals the brute force over the base tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fedService } from '../../testing/goldens.ts';
import { waitForProcessing } from '../../testing/service.ts';
import { withStore } from '../../testing/store.ts';
import { BruteForce } from '../../testing/analytics-brute-force.ts';
import { ANALYTICS_TEST_ENV as ENV, ANALYTICS_TEST_TOKEN as TOKEN, analyticsClient } from './test-client.ts';

// fuzzed-transactions-1 pays 2 × 30,000 sats at burn height 241 (a testnet chain: 20-block cycles).
const FIXTURE = 'fuzzed-transactions-1';
const HEIGHT = 241;
const CYCLE = 12;
const REPLACED_SATS = 60_000n;
const NEW_SATS = 70_000n;

type Cycle = { cycle: number; btc_rewards: string; reward_recipients: number };

test('a burn block replaced at its height leaves the PoX cycle rewards, its successor counts', async () => {
  const svc = await fedService(FIXTURE, ENV);
  let before: Cycle[];
  let after: Cycle[];
  try {
    const api = analyticsClient(svc.apiUrl, TOKEN);
    before = (await api.get<{ results: Cycle[] }>('/pox/cycles')).results;
    const fork = {
      burn_amount: 0,
      burn_block_hash: `0x${'f0'.repeat(32)}`,
      burn_block_height: HEIGHT,
      consensus_hash: `0x${'f1'.repeat(20)}`,
      parent_burn_block_hash: '0x41d9324ae8818b640954bd1b1d4668910f98c173b3e369e35f59f856606c6f41',
      reward_recipients: [{ amt: Number(NEW_SATS), recipient: 'mpgvmF9DSDBrbxUY4rbsPmWkYakoDXr19j' }],
      reward_slot_holders: ['mpgvmF9DSDBrbxUY4rbsPmWkYakoDXr19j'],
    };
    const res = await fetch(`${svc.eventUrl}/new_burn_block`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fork) });
    assert.equal(res.status, 200);
    await waitForProcessing(svc.apiUrl);
    after = (await api.get<{ results: Cycle[] }>('/pox/cycles')).results;
  } finally {
    await svc.stop();
  }
  const at = (list: Cycle[]) => list.find((c) => c.cycle === CYCLE)!;
  assert.ok(at(before), `cycle ${CYCLE} has rewards`);
  assert.equal(BigInt(at(after).btc_rewards), BigInt(at(before).btc_rewards) - REPLACED_SATS + NEW_SATS, "the replaced block's payouts left, the new one's came in");
  await withStore(svc.dataDir, async (store) => {
    const expected = await new BruteForce(store, 'testnet').poxCycles();
    for (const c of after) {
      assert.equal(c.btc_rewards, expected.get(c.cycle)?.btc_rewards ?? '0', `cycle ${c.cycle} rewards`);
      assert.equal(c.reward_recipients, expected.get(c.cycle)?.reward_recipients ?? 0, `cycle ${c.cycle} recipients`);
    }
  });
});
