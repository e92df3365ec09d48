// Every route family's acceptance check against the reference's recorded answers (each in
// <family>/<family>.goldens.ts), for the tests that compare a fed service with the goldens.
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { diffGoldens, familyProblems, readGoldenFile, type GoldenFamily } from '../../testing/goldens.ts';
import { ingestGoldenFamily } from '../../ingest/ingest.goldens.ts';
import { addressGoldenFamily } from '../address/address.goldens.ts';
import { blocksGoldenFamily } from '../blocks/blocks.goldens.ts';
import { bnsGoldenFamily } from '../bns/bns.goldens.ts';
import { burnchainGoldenFamily } from '../burnchain/burnchain.goldens.ts';
import { contractsGoldenFamily } from '../contracts/contracts.goldens.ts';
import { infoGoldenFamily } from '../info/info.goldens.ts';
import { poxGoldenFamily } from '../pox/pox.goldens.ts';
import { rosettaGoldenFamily } from '../rosetta/rosetta.goldens.ts';
import { searchGoldenFamily } from '../search/search.goldens.ts';
import { supplyGoldenFamily } from '../supply/supply.goldens.ts';
import { tokensGoldenFamily } from '../tokens/tokens.goldens.ts';
import { txGoldenFamily } from '../tx/tx.goldens.ts';

export const GOLDEN_FAMILIES: GoldenFamily[] = [
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

/** A pattern matching the URLs of every family's recorded answers. */
export const ALL_GOLDEN_ROUTES = GOLDEN_FAMILIES.map((f) => `(?:${f.routes.source})`).join('|');

/** Compares every recorded answer of `fixture` once, then judges each family's URLs as a subtest. */
export async function checkGoldenFamilies(t: TestContext, apiUrl: string, fixture: string): Promise<void> {
  const { report } = await diffGoldens(apiUrl, fixture, ALL_GOLDEN_ROUTES);
  const ctx = { apiUrl, fixture, goldens: readGoldenFile(fixture) };
  for (const family of GOLDEN_FAMILIES) {
    await t.test(family.name, async () => assert.deepEqual(await familyProblems(family, report, ctx), []));
  }
}
