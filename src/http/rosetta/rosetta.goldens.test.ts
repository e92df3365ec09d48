// The Rosetta family against the reference's recorded answers for every fixture (the service runs
// with the fixture's chain id, which the recorded /network/list names). Every recorded request
// that the reference answered 200 is a valid Mesh request, and every answer of ours validates
// against the Mesh object its route declares (200) or the Mesh Error (any other status).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitForProcessing } from '../../testing/service.ts';
import { GOLDEN_FIXTURES, diffGoldens, fedService } from '../../testing/goldens.ts';
import { fixtureNetwork, rosettaGoldens, rosettaPost } from './mesh-check.ts';

for (const fixture of GOLDEN_FIXTURES) {
  test(`${fixture}: /rosetta/v1 answers as the reference, in Mesh shapes`, async () => {
    const goldens = rosettaGoldens(fixture);
    const svc = await fedService(fixture, { STACKS_CHAIN_ID: fixtureNetwork(fixture).chainId });
    try {
      const status = await waitForProcessing(svc.apiUrl);
      assert.equal((status.event_log as { error?: unknown }).error, undefined, 'processing reported an error');
      const r = await diffGoldens(svc.apiUrl, fixture, '^/rosetta/v1');
      assert.ok(r.passed > 0, 'no golden was compared');
      assert.deepEqual(
        r.report.filter((x) => !x.ok).map((f) => `${f.url}: ${f.diffs.slice(0, 3).join('; ')}`),
        [],
      );
      const problems: string[] = [];
      // Requests the reference refused may be invalid on purpose: only our answer must validate.
      for (const g of goldens) await rosettaPost(svc.apiUrl, g.url, g.request_body, problems, { invalidRequest: g.status !== 200 });
      assert.deepEqual(problems, []);
    } finally {
      await svc.stop();
    }
  });
}
