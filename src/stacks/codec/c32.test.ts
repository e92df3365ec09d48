import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { addressToString, addressFromVersionHash } from '@stacks/transactions';
import { c32address, c32encode, c32decode, parsePrincipal, isValidPrincipal, AddressVersion } from './c32.ts';
import { DecodeError } from './bytes.ts';

test('c32address matches @stacks/transactions for every version and random hashes (incl. leading zeros)', () => {
  let n = 0;
  for (let version = 0; version < 32; version++) {
    for (let i = 0; i < 100; i++) {
      const hash = randomBytes(20);
      if (i < 10) hash.fill(0, 0, i * 2); // leading zero bytes
      if (i === 10) hash.fill(0);
      const hex = hash.toString('hex');
      const ours = c32address(version, hex);
      assert.equal(ours, addressToString(addressFromVersionHash(version, hex)), `version ${version} hash ${hex}`);
      assert.deepEqual(parsePrincipal(ours), { version, hash160: hex, address: ours });
      n++;
    }
  }
  assert.equal(n, 3200);
});

test('known addresses', () => {
  assert.equal(c32address(AddressVersion.MainnetSingleSig, '00'.repeat(20)), 'SP000000000000000000002Q6VF78');
  assert.equal(c32address(AddressVersion.TestnetSingleSig, '0x' + '00'.repeat(20)), 'ST000000000000000000002AMW42H');
  const p = parsePrincipal('SP466FNC0P7JWTNM2R9T199QRZN1MYEDTAR0KP27.miamicoin-token');
  assert.equal(p.version, 22);
  assert.equal(p.contractName, 'miamicoin-token');
  assert.equal(c32address(p.version, p.hash160), 'SP466FNC0P7JWTNM2R9T199QRZN1MYEDTAR0KP27');
});

test('c32 encode/decode round trip', () => {
  for (let len = 0; len < 40; len++) {
    const b = randomBytes(len);
    if (len > 3) b[0] = 0;
    assert.deepEqual(c32decode(c32encode(b)), b);
  }
  assert.equal(c32decode('0O1'), null);
});

test('parsePrincipal rejects what is not a canonical principal', () => {
  const bad: [string, RegExp][] = [
    ['', /not an "S…" c32 address/],
    ['SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ8', /checksum mismatch/],
    ['sp2j6zy48gv1ez5v2v5rb9mp66sw86pykknrv9ej7', /not an "S…" c32 address/],
    ['Sp2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7', /bad version character/],
    ['SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJI', /outside the c32 alphabet/],
    ['SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9E', /decodes to 23 bytes|checksum/],
    ['SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7.', /bad contract name/],
    ['SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7.1abc', /bad contract name/],
    ['SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7.a.b', /bad contract name/],
    ['not-a-principal', /not an "S…" c32 address/],
  ];
  for (const [s, re] of bad) {
    assert.throws(() => parsePrincipal(s), (e: unknown) => e instanceof DecodeError && re.test(e.message), s);
    assert.equal(isValidPrincipal(s), false);
  }
  assert.equal(isValidPrincipal('SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7.my_contract-2'), true);
  assert.throws(() => c32address(22, 'abcd'), DecodeError);
  assert.throws(() => c32address(32, '00'.repeat(20)), DecodeError);
});
