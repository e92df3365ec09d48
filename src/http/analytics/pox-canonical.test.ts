// /pox/cycles counts the canonical chain only: reward sets and stacking locks recorded by an
// orphaned block, or by a block with no canonical status yet (held), are left out of their cycles,
// through the per-version list of the PoX tables' non-canonical blocks. Rows are added to a fed
// reorg fixture's store and read through the real engine; the stackers equal the brute force's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fedService } from '../../testing/goldens.ts';
import { withStore } from '../../testing/store.ts';
import { BruteForce } from '../../testing/analytics-brute-force.ts';
import { POX_PARAMS } from '../../stacks/buckets.ts';
import { rows } from '../reads/query.ts';
import * as Q from './queries.ts';
import { ANALYTICS_TEST_ENV as ENV } from './test-client.ts';

const HELD = `0x${'ab'.repeat(32)}`;

test('reward sets and locks of orphaned and held blocks are not counted in their cycles', async () => {
  const svc = await fedService('mainnet-reorg-scenario2', ENV);
  await svc.stop();
  await withStore(svc.dataDir, async (store) => {
    const pick = async (canonical: number) =>
      (await rows<{ h: string; n: number }>(store, `SELECT index_block_hash AS h, block_height AS n FROM block_canonical FINAL WHERE canonical = {c:UInt8} ORDER BY block_height DESC LIMIT 1`, { c: canonical }))[0];
    const [orphan, canon] = [await pick(0), await pick(1)];
    assert.ok(orphan && canon, 'the fixture has an orphaned and a canonical block');
    const set = (cycle: number, b: { h: string; n: number }, stacked: number, signers: number) => `(${cycle}, '${b.h}', ${b.n}, 0, ${stacked}, ${signers})`;
    await store.client.command({
      query: `INSERT INTO pox_cycles (cycle_number, index_block_hash, block_height, total_weight, total_stacked_amount, total_signers) VALUES
        ${set(900, orphan, 999, 9)}, ${set(900, canon, 111, 1)}, ${set(901, orphan, 555, 5)}, ${set(902, { h: HELD, n: canon.n + 1 }, 777, 7)}`,
    });
    const lock = (b: { h: string; n: number }, index: number, stacker: string, start: number, end: number) =>
      `('pox4', ${b.n}, ${index}, 0, '0x${String(index).padStart(64, '0')}', '${b.h}', '', 'stack-stx', '${stacker}', 0, 0, 0, '{"start-cycle-id":"${start}","end-cycle-id":"${end}"}')`;
    await store.client.command({
      query: `INSERT INTO pox_events (pox_version, block_height, tx_index, event_index, tx_id, index_block_hash, microblock_hash, name, stacker, locked, balance, burnchain_unlock_height, data) VALUES
        ${lock(orphan, 90, 'SP_ORPHANED', 900, 903)}, ${lock(canon, 91, 'SP_CANONICAL', 900, 901)}, ${lock({ h: HELD, n: canon.n + 1 }, 92, 'SP_HELD', 902, 903)}`,
    });

    const notCanonical = await Q.nonCanonicalPoxBlocks(store);
    assert.ok(notCanonical.includes(orphan.h) && notCanonical.includes(HELD), 'the orphaned and the held block are listed');
    assert.ok(!notCanonical.includes(canon.h));
    const pox = { first: POX_PARAMS.mainnet.firstBurnHeight, length: POX_PARAMS.mainnet.cycleLength };
    const answer = await Q.poxCycles(store, 900, 903, pox, { heights: [], hashes: [] }, notCanonical);
    assert.deepEqual(answer, [{ cycle: 900, stacked_amount: '111', signers: 1, stackers: 1, btc_rewards: '0', reward_recipients: 0 }]);
    const expected = await new BruteForce(store, 'mainnet').poxCycles();
    for (const cycle of [900, 901, 902]) assert.equal(answer.find((c) => c.cycle === cycle)?.stackers ?? 0, expected.get(cycle)?.stackers ?? 0, `cycle ${cycle} stackers`);
  });
});
