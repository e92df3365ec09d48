// Signing a standard single-sig transaction (SIP-005 §12.1): the payload to sign is the presign
// sighash — the txid of the tx with its authorization cleared (nonce, fee and signature zero),
// hashed with the auth type, fee and nonce — and the signature (v, r, s) goes in the spending
// condition. Byte offsets of a standard single-sig spending condition:
// version 0, chain id 1-4, auth type 5, hash mode 6, signer 7-26, nonce 27-34, fee 35-42,
// key encoding 43, signature 44-108.
import { createHash } from 'node:crypto';
import { txIdOf, type DecodedTransaction } from '../../../stacks/codec/index.ts';

const NONCE = 27;
const FEE = 35;
const SIGNATURE = 44;
const SIGNATURE_LENGTH = 65;
const AUTH_STANDARD = 0x04;

/** Whether the tx is one the construction endpoints sign: standard auth, single-sig origin. */
export function isStandardSingleSig(tx: DecodedTransaction): boolean {
  return tx.auth.type === 'standard' && tx.auth.origin.kind === 'single_sig';
}

/** Whether the origin's signature is all zeros (an unsigned tx). */
export function isUnsigned(tx: DecodedTransaction): boolean {
  const o = tx.auth.origin;
  return o.kind === 'single_sig' ? /^0x0+$/.test(o.signature) : !o.fields.some((f) => f.type === 'signature');
}

/** The payload a standard single-sig tx is signed over (32 bytes). */
export function presignSighash(bytes: Uint8Array): Buffer {
  const cleared = Buffer.from(bytes);
  cleared.fill(0, NONCE, SIGNATURE + SIGNATURE_LENGTH);
  cleared[SIGNATURE - 1] = bytes[SIGNATURE - 1]; // the key encoding stays
  const initial = Buffer.from(txIdOf(cleared).slice(2), 'hex');
  return createHash('sha512-256')
    .update(Buffer.concat([initial, Buffer.of(AUTH_STANDARD), Buffer.from(bytes.subarray(FEE, FEE + 8)), Buffer.from(bytes.subarray(NONCE, NONCE + 8))]))
    .digest();
}

/** The tx with `rsv` (Mesh's ecdsa_recovery: r, s, recovery id) as the origin's signature (v, r, s). */
export function withSignature(bytes: Uint8Array, rsv: Uint8Array): Buffer {
  const signed = Buffer.from(bytes);
  signed[SIGNATURE] = rsv[64];
  signed.set(rsv.subarray(0, 64), SIGNATURE + 1);
  return signed;
}
