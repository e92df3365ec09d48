// Every route family against the reference's recorded answers. Per fixture one service (with the
// fixture's chain id, as the reference was run) is fed the recorded log, diff-goldens compares all
// recorded answers once, and each family's check (in <family>/<family>.goldens.ts) judges its own
// URLs as a subtest. One service per fixture instead of one per family and fixture keeps CI short.
// Last, the fork fixture, a reorg log of our own making, against the answers the reference's rules
// give it (fork.goldens.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitForProcessing } from '../../testing/service.ts';
import { GOLDEN_FIXTURES, fedService } from '../../testing/goldens.ts';
import { fixtureNetwork } from '../../testing/rosetta-mesh-check.ts';
import { checkGoldenFamilies } from './families.ts';
import { forkService } from '../../testing/fork-service.ts';
import { checkForkGoldens } from './fork.goldens.ts';
import { checkV3Goldens } from '../v3/v3.goldens.ts';

for (const fixture of GOLDEN_FIXTURES) {
  test(`${fixture}: every route family answers as the reference`, async (t) => {
    const svc = await fedService(fixture, { STACKS_CHAIN_ID: fixtureNetwork(fixture).chainId });
    try {
      const status = await waitForProcessing(svc.apiUrl);
      assert.equal((status.event_log as { error?: unknown }).error, undefined, 'processing reported an error');
      await checkGoldenFamilies(t, svc.apiUrl, fixture);
      await checkV3Goldens(t, svc.apiUrl, fixture);
    } finally {
      await svc.stop();
    }
  });
}

test('fork fixture (ours): forks and re-mined txs answered by the reference\'s rules', async (t) => {
  const svc = await forkService();
  try {
    const status = await waitForProcessing(svc.apiUrl);
    assert.equal((status.event_log as { error?: unknown }).error, undefined, 'processing reported an error');
    await checkForkGoldens(t, svc.apiUrl);
  } finally {
    await svc.stop();
  }
});
