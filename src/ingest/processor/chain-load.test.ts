// The chain state keeps only recent heights in memory. With none kept below the tip and every entry
// its own batch, each reorg reaches below memory and reads its blocks back from the store: the
// answers must still be the reference's, and memory must hold only what the tip needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, waitForProcessing } from '../../testing/service.ts';
import { feedFixture } from '../../testing/goldens.ts';
import { fixtureNetwork } from '../../testing/rosetta-mesh-check.ts';
import { checkGoldenFamilies } from '../../http/goldens/families.ts';

const metric = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);

test('a reorg below the heights kept in memory reads them back and answers as the reference', { timeout: 300_000 }, async (t) => {
  const fixture = 'mainnet-reorg-scenario2';
  const env = { STACKS_CHAIN_ID: fixtureNetwork(fixture).chainId, STACKS_API_CHAIN_STATE_HEIGHTS: '0', STACKS_API_LIVE_BATCH_MS: '0' };
  const svc = await startService({ env });
  try {
    await feedFixture(svc.eventUrl, fixture);
    const status = await waitForProcessing(svc.apiUrl);
    assert.equal((status.event_log as { error?: unknown }).error, undefined, 'processing reported an error');
    const metrics = await (await fetch(`${svc.apiUrl}/metrics`)).text();
    // Block 3 builds on the fork block 2 after block 1 was forgotten: restoring the fork reads it back.
    assert.ok(metric(metrics, 'stacks_ingest_chain_state_loads_total') >= 1, 'the reorg read lower heights back');
    // Tip 4 and nothing below (of the chain's five blocks).
    assert.equal(metric(metrics, 'stacks_ingest_chain_state_blocks'), 1);
    await checkGoldenFamilies(t, svc.apiUrl, fixture);
  } finally {
    await svc.stop();
  }
});
