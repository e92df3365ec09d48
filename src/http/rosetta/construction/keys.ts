// Public keys and the Stacks addresses they control (single-sig P2PKH: hash160 of the key as given).
import { createHash } from 'node:crypto';
import { AddressVersion, c32address } from '../../../stacks/codec/index.ts';
import { uncompressed } from './secp256k1.ts';

export const hash160 = (bytes: Uint8Array): Buffer => createHash('ripemd160').update(createHash('sha256').update(bytes).digest()).digest();

/** The key's bytes when it is a valid secp256k1 public key in hex (33 or 65 bytes, 0x optional). */
export function publicKeyBytes(hex: string): Buffer | undefined {
  const h = hex.startsWith('0x') ? hex.slice(2) : hex;
  if (!/^[0-9a-fA-F]+$/.test(h) || (h.length !== 66 && h.length !== 130)) return undefined;
  const bytes = Buffer.from(h, 'hex');
  return uncompressed(bytes) ? bytes : undefined;
}

/** The single-sig address of a public key on mainnet or testnet. */
export function addressOfKey(publicKey: Uint8Array, mainnet: boolean): string {
  return c32address(mainnet ? AddressVersion.MainnetSingleSig : AddressVersion.TestnetSingleSig, hash160(publicKey).toString('hex'));
}
