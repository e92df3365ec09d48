// The v1 block lookups by burn block on forked chains. The reference (pg-store getBlockInternal)
// finds any stored block with that burn block hash or height, canonical first, then the tallest:
// the Stacks block of a burn block whose block was orphaned is answered (canonical: false), and so
// is a testnet chain's genesis block at burn height 0. Each is the answer the reference recorded
// for the same block by its hash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fedService, readGoldenFile } from '../../testing/goldens.ts';
import { fixtureNetwork } from '../../testing/rosetta-mesh-check.ts';

async function answersAsByHash(fixture: string, blockHash: string, urls: string[]): Promise<void> {
  const golden = readGoldenFile(fixture).get(`/extended/v1/block/${blockHash}`);
  assert.equal(golden?.status, 200, `the reference's answer for block ${blockHash}`);
  const svc = await fedService(fixture, { STACKS_CHAIN_ID: fixtureNetwork(fixture).chainId });
  try {
    for (const url of urls) {
      const res = await fetch(`${svc.apiUrl}${url}`);
      assert.equal(res.status, 200, url);
      assert.deepEqual(await res.json(), golden.body, url);
    }
  } finally {
    await svc.stop();
  }
}

test('by_burn_block_hash / by_burn_block_height: the orphaned Stacks block of a burn block (block 2a of the recorded reorg)', () =>
  answersAsByHash('mainnet-reorg-scenario2', '0xebee0ee47d54fcce3e40b7ff93dcd2f8747c054daf9bc9eb9df5b5c1cf459781', [
    '/extended/v1/block/by_burn_block_hash/0x000000000000000000142f51853336d9ba1f218030c8dccd7f6f027ba2b17252',
    '/extended/v1/block/by_burn_block_height/693418',
  ]));

test('by_burn_block_height/0 and its burn hash: the genesis block of a testnet chain that starts at burn height 0', () =>
  answersAsByHash('regtest-env-pox-4-stack-stx-in-reward-phase-S1', '0x0000000000000000000000000000000000000000000000000000000000000000', [
    '/extended/v1/block/by_burn_block_height/0',
    '/extended/v1/block/by_burn_block_hash/0x0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206',
  ]));
