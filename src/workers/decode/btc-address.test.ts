import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base58CheckDecode, isValidBitcoinAddress, poxAddressToBtc, segwitDecode, segwitEncode, stxToBtcAddress } from './btc-address.ts';

test('Bitcoin addresses: base58check and segwit round trips, PoX tuples, Stacks twins', () => {
  // BIP-173 / BIP-350 vectors.
  assert.equal(segwitEncode('bc', 0, Buffer.from('751e76e8199196d454941c45d1b3a323f1433bd6', 'hex')), 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
  assert.deepEqual(segwitDecode('BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')?.program.toString('hex'), '751e76e8199196d454941c45d1b3a323f1433bd6');
  assert.equal(segwitDecode('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0')?.version, 1);
  assert.equal(segwitDecode('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5'), null, 'bad checksum');
  assert.equal(base58CheckDecode('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')?.version, 0);
  assert.ok(isValidBitcoinAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'));
  assert.ok(isValidBitcoinAddress('mpgvmF9DSDBrbxUY4rbsPmWkYakoDXr19j'));
  assert.ok(!isValidBitcoinAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3'));
  assert.ok(!isValidBitcoinAddress('not-an-address'));
  // A Stacks address and its Bitcoin twin share the hash160 (the reference's c32ToB58).
  assert.equal(stxToBtcAddress('SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7'), '1FzTxL9Mxnm2fdmnQEArfhzJHevwbvcH6d');
  assert.equal(stxToBtcAddress('ST3AM1A56AK2C1XAFJ4115ZSV26EB49BVQ10MGCS0'), 'mzxXgV6e4BZSsz8zVHm3TmqbECt7mbuErt');
  assert.equal(stxToBtcAddress('SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7.contract'), null);
  const hash = Buffer.from('a0cfb05d2c06d2b0bd8a87ff2e5d1a2bc1a43ab2', 'hex');
  assert.equal(poxAddressToBtc(0, hash, 'mainnet'), '1FfHvAz3YZkjBSeguS575wpWhR3psNEYuc');
  assert.equal(poxAddressToBtc(4, hash, 'testnet')?.slice(0, 3), 'tb1');
  assert.equal(poxAddressToBtc(9, hash, 'mainnet'), null);
});
