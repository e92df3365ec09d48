// Bitcoin addresses on published vectors (BIP-173 / BIP-350, well-known base58 addresses): the
// base58check and segwit codecs, PoX tuples <-> Bitcoin addresses both ways, Stacks twins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base58CheckDecode, base58CheckEncode, btcToPoxAddress, isValidBitcoinAddress, poxAddressToBtc, segwitDecode, segwitEncode, stxToBtcAddress, type BtcNetwork } from './btc-address.ts';

const VECTORS: Array<[string, BtcNetwork, number, string]> = [
  ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'mainnet', 0, '77bff20c60e522dfaa3350c39b030a5d004e839a'],
  ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'mainnet', 1, 'b472a266d0bd89c13706a4132ccfb16f7c3b9fcb'],
  ['n2v875jbJ4RjBnTjgbfikDfnwsDV5iUByw', 'testnet', 0, 'eabc65f3e890fb8bf20d153e95119c72d85765a9'],
  ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'mainnet', 4, '751e76e8199196d454941c45d1b3a323f1433bd6'],
  ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'testnet', 4, '751e76e8199196d454941c45d1b3a323f1433bd6'],
  ['bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3', 'mainnet', 5, '1863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262'],
  ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'testnet', 5, '1863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262'],
  ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'mainnet', 6, '79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798'],
];

test('base58check and segwit codecs', () => {
  // BIP-173 / BIP-350 vectors.
  assert.equal(segwitEncode('bc', 0, Buffer.from('751e76e8199196d454941c45d1b3a323f1433bd6', 'hex')), 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
  assert.deepEqual(segwitDecode('BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')?.program.toString('hex'), '751e76e8199196d454941c45d1b3a323f1433bd6');
  assert.equal(segwitDecode('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0')?.version, 1);
  assert.equal(segwitDecode('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5'), null, 'bad checksum');
  assert.equal(segwitDecode('Bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'), null, 'mixed case');
  assert.equal(base58CheckDecode('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')?.version, 0);
  assert.equal(base58CheckDecode('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3'), null, 'bad checksum');
  // Leading zero bytes are leading '1's, both ways.
  const zeros = base58CheckEncode(0x00, Buffer.alloc(20));
  assert.equal(zeros, '1111111111111111111114oLvT2');
  assert.deepEqual(base58CheckDecode(zeros), { version: 0, payload: Buffer.alloc(20) });
  assert.ok(isValidBitcoinAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'));
  assert.ok(isValidBitcoinAddress('mpgvmF9DSDBrbxUY4rbsPmWkYakoDXr19j'));
  assert.ok(isValidBitcoinAddress('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'));
  assert.ok(!isValidBitcoinAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3'));
  assert.ok(!isValidBitcoinAddress('not-an-address'));
  // Well-formed base58check that is no Bitcoin address: a 19-byte payload, another coin's version byte.
  assert.ok(!isValidBitcoinAddress(base58CheckEncode(0x00, Buffer.alloc(19, 1))));
  assert.ok(!isValidBitcoinAddress(base58CheckEncode(0x1e, Buffer.alloc(20, 1))));
});

test('Bitcoin addresses and PoX tuples convert both ways', () => {
  for (const [address, network, version, hash] of VECTORS) {
    const pox = btcToPoxAddress(address, network);
    assert.deepEqual(pox && { version: pox.version, hash: pox.hashbytes.toString('hex') }, { version, hash }, address);
    assert.equal(poxAddressToBtc({ version, hashbytes: Buffer.from(hash, 'hex') }, network), address);
  }
  const hash = Buffer.from('a0cfb05d2c06d2b0bd8a87ff2e5d1a2bc1a43ab2', 'hex');
  assert.equal(poxAddressToBtc({ version: 0, hashbytes: hash }, 'mainnet'), '1FfHvAz3YZkjBSeguS575wpWhR3psNEYuc');
  // p2sh-wrapped segwit versions are P2SH addresses.
  assert.equal(poxAddressToBtc({ version: 2, hashbytes: hash }, 'mainnet')?.[0], '3');
  assert.equal(poxAddressToBtc({ version: 3, hashbytes: hash }, 'testnet')?.[0], '2');
  assert.equal(poxAddressToBtc({ version: 4, hashbytes: hash }, 'testnet')?.slice(0, 3), 'tb1');
  // Regtest: bcrt1 segwit, testnet base58; testnet accepts bcrt1 addresses too.
  const regtest = poxAddressToBtc({ version: 4, hashbytes: hash }, 'regtest');
  assert.equal(regtest?.slice(0, 5), 'bcrt1');
  assert.equal(btcToPoxAddress(regtest!, 'testnet')?.hashbytes.toString('hex'), hash.toString('hex'));
  assert.equal(poxAddressToBtc({ version: 0, hashbytes: hash }, 'regtest'), poxAddressToBtc({ version: 0, hashbytes: hash }, 'testnet'));
});

test('other networks, bad checksums, wrong witness versions and lengths are refused', () => {
  assert.equal(btcToPoxAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'testnet'), null);
  assert.equal(btcToPoxAddress('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'mainnet'), null);
  assert.equal(btcToPoxAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', 'mainnet'), null);
  assert.equal(btcToPoxAddress('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'mainnet'), null);
  // BIP-350: a v1 program with the bech32 (not bech32m) checksum.
  assert.equal(btcToPoxAddress('bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx', 'mainnet'), null);
  assert.equal(poxAddressToBtc({ version: 4, hashbytes: Buffer.alloc(32) }, 'mainnet'), null);
  assert.equal(poxAddressToBtc({ version: 9, hashbytes: Buffer.alloc(20) }, 'mainnet'), null);
  assert.equal(poxAddressToBtc({ version: -1, hashbytes: Buffer.alloc(20) }, 'mainnet'), null, 'no version byte');
  assert.equal(btcToPoxAddress('not an address', 'mainnet'), null);
  assert.equal(btcToPoxAddress(base58CheckEncode(0x00, Buffer.alloc(21, 1)), 'mainnet'), null, '21-byte payload');
});

test('a Stacks address and its Bitcoin twin share the hash160 (the reference c32ToB58)', () => {
  assert.equal(stxToBtcAddress('SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7'), '1FzTxL9Mxnm2fdmnQEArfhzJHevwbvcH6d');
  assert.equal(stxToBtcAddress('ST3AM1A56AK2C1XAFJ4115ZSV26EB49BVQ10MGCS0'), 'mzxXgV6e4BZSsz8zVHm3TmqbECt7mbuErt');
  assert.equal(stxToBtcAddress('SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7.contract'), null);
  assert.equal(stxToBtcAddress('not-a-stacks-address'), null);
});
