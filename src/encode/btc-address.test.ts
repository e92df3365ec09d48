// PoX reward addresses <-> Bitcoin addresses, on published vectors (BIP-173 / BIP-350, well-known
// base58 addresses), both directions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { btcToPoxAddress, poxAddressToBtc } from './btc-address.ts';

const VECTORS: Array<[string, boolean, number, string]> = [
  ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', true, 0, '77bff20c60e522dfaa3350c39b030a5d004e839a'],
  ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', true, 1, 'b472a266d0bd89c13706a4132ccfb16f7c3b9fcb'],
  ['n2v875jbJ4RjBnTjgbfikDfnwsDV5iUByw', false, 0, 'eabc65f3e890fb8bf20d153e95119c72d85765a9'],
  ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', true, 4, '751e76e8199196d454941c45d1b3a323f1433bd6'],
  ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', false, 4, '751e76e8199196d454941c45d1b3a323f1433bd6'],
  ['bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3', true, 5, '1863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262'],
  ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', false, 5, '1863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262'],
  ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', true, 6, '79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798'],
];

test('Bitcoin addresses and PoX tuples convert both ways', () => {
  for (const [address, mainnet, version, hash] of VECTORS) {
    const pox = btcToPoxAddress(address, mainnet);
    assert.deepEqual(pox && { version: pox.version, hash: pox.hashbytes.toString('hex') }, { version, hash }, address);
    assert.equal(poxAddressToBtc({ version, hashbytes: Buffer.from(hash, 'hex') }, mainnet), address);
  }
});

test('other networks, bad checksums, wrong witness versions and lengths are refused', () => {
  assert.equal(btcToPoxAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', false), undefined);
  assert.equal(btcToPoxAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', true), undefined);
  assert.equal(btcToPoxAddress('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', true), undefined);
  // BIP-350: a v1 program with the bech32 (not bech32m) checksum.
  assert.equal(btcToPoxAddress('bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx', true), undefined);
  assert.equal(poxAddressToBtc({ version: 4, hashbytes: Buffer.alloc(32) }, true), undefined);
  assert.equal(poxAddressToBtc({ version: 9, hashbytes: Buffer.alloc(20) }, true), undefined);
  assert.equal(btcToPoxAddress('not an address', true), undefined);
});
