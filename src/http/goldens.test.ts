// Every route family against the reference's recorded answers. Per fixture one service (with the
// fixture's chain id, as the reference was run) is fed the recorded log, diff-goldens compares all
// recorded answers once, and each family's check (in <family>/<family>.goldens.ts) judges its own
// URLs as a subtest. One service per fixture instead of one per family and fixture keeps CI short.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitForProcessing } from '../testing/service.ts';
import { GOLDEN_FIXTURES, diffGoldens, familyProblems, fedService, readGoldenFile, type GoldenFamily } from '../testing/goldens.ts';
import { fixtureNetwork } from './rosetta/mesh-check.ts';
import { ingestGoldenFamily } from '../ingest/ingest.goldens.ts';
import { addressGoldenFamily } from './address/address.goldens.ts';
import { blocksGoldenFamily } from './blocks/blocks.goldens.ts';
import { bnsGoldenFamily } from './bns/bns.goldens.ts';
import { burnchainGoldenFamily } from './burnchain/burnchain.goldens.ts';
import { contractsGoldenFamily } from './contracts/contracts.goldens.ts';
import { infoGoldenFamily } from './info/info.goldens.ts';
import { poxGoldenFamily } from './pox/pox.goldens.ts';
import { rosettaGoldenFamily } from './rosetta/rosetta.goldens.ts';
import { searchGoldenFamily } from './search/search.goldens.ts';
import { supplyGoldenFamily } from './supply/supply.goldens.ts';
import { tokensGoldenFamily } from './tokens/tokens.goldens.ts';
import { txGoldenFamily } from './tx/tx.goldens.ts';

const FAMILIES: GoldenFamily[] = [
  ingestGoldenFamily,
  txGoldenFamily,
  addressGoldenFamily,
  blocksGoldenFamily,
  tokensGoldenFamily,
  contractsGoldenFamily,
  searchGoldenFamily,
  poxGoldenFamily,
  burnchainGoldenFamily,
  supplyGoldenFamily,
  infoGoldenFamily,
  bnsGoldenFamily,
  rosettaGoldenFamily,
];

const ALL_ROUTES = FAMILIES.map((f) => `(?:${f.routes.source})`).join('|');

for (const fixture of GOLDEN_FIXTURES) {
  test(`${fixture}: every route family answers as the reference`, async (t) => {
    const svc = await fedService(fixture, { STACKS_CHAIN_ID: fixtureNetwork(fixture).chainId });
    try {
      const status = await waitForProcessing(svc.apiUrl);
      assert.equal((status.event_log as { error?: unknown }).error, undefined, 'processing reported an error');
      const { report } = await diffGoldens(svc.apiUrl, fixture, ALL_ROUTES);
      const ctx = { apiUrl: svc.apiUrl, fixture, goldens: readGoldenFile(fixture) };
      for (const family of FAMILIES) {
        await t.test(family.name, async () => assert.deepEqual(await familyProblems(family, report, ctx), []));
      }
    } finally {
      await svc.stop();
    }
  });
}
