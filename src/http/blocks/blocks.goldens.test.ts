// The block families (v1 /block, v2 /blocks, /burn-blocks, /block-tenures) against the reference's
// recorded answers for every fixture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GOLDEN_FIXTURES, diffGoldens, fedService, onlyTieOrderDiffs } from '../../testing/goldens.ts';

const ROUTES = '^/extended/v1/block|^/extended/v2/(burn-blocks|block-tenures|blocks(\\?|$|/[^/]+$|/[^/]+/signer-signatures|/average-times))';

for (const fixture of GOLDEN_FIXTURES) {
  test(`${fixture}: block families match the reference`, async () => {
    const svc = await fedService(fixture);
    try {
      const r = await diffGoldens(svc.apiUrl, fixture, ROUTES);
      assert.ok(r.passed > 0, 'no golden was compared');
      const unexplained = r.report.filter((x) => !x.ok && !onlyTieOrderDiffs(x.diffs));
      assert.deepEqual(unexplained.map((f) => `${f.url}: ${f.diffs.slice(0, 3).join('; ')}`), []);
    } finally {
      await svc.stop();
    }
  });
}
