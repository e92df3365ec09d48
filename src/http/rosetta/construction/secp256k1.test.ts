// Recoverable signatures: one made by @stacks/transactions recovers its key; another digest, key or
// recovery id does not; a high-S twin (valid ECDSA, refused by the node) is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { privateKeyToPublic, randomPrivateKey, signMessageHashRsv, uncompressPublicKey } from '@stacks/transactions';
import { checkRecoverableSignature } from './secp256k1.ts';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

test('recoverable signatures are checked as the node checks them', () => {
  for (let i = 0; i < 5; i++) {
    const key = randomPrivateKey();
    const pub = Buffer.from(privateKeyToPublic(key) as string, 'hex');
    const digest = randomBytes(32);
    const rsv = Buffer.from(signMessageHashRsv({ messageHash: digest.toString('hex'), privateKey: key }), 'hex');
    assert.deepEqual(checkRecoverableSignature(digest, rsv, pub), { ok: true });
    assert.deepEqual(checkRecoverableSignature(digest, rsv, Buffer.from(uncompressPublicKey(pub.toString('hex')), 'hex')), { ok: true });
    assert.equal(checkRecoverableSignature(randomBytes(32), rsv, pub).ok, false);
    assert.equal(checkRecoverableSignature(digest, rsv, Buffer.from(privateKeyToPublic(randomPrivateKey()) as string, 'hex')).ok, false);
    const flipped = Buffer.from(rsv);
    flipped[64] ^= 1;
    assert.equal(checkRecoverableSignature(digest, flipped, pub).ok, false);
    const highS = Buffer.from(rsv);
    highS.set(Buffer.from((N - BigInt(`0x${rsv.subarray(32, 64).toString('hex')}`)).toString(16).padStart(64, '0'), 'hex'), 32);
    highS[64] ^= 1;
    assert.deepEqual(checkRecoverableSignature(digest, highS, pub), { ok: false, reason: 'high-S signature (the node takes low-S only)' });
  }
});
