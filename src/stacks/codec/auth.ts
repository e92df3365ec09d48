// Transaction authorization (SIP-005 §12.1): standard or sponsored, each with one or two spending
// conditions. The signer's address version follows stacks-core's AddressHashMode::to_version_*:
// only P2PKH (0x00) is a single-sig address ('P'/'T'); every other hash mode — including the
// single-sig P2WPKH (0x02) — gets the multi-sig version ('M'/'N').
import { ByteReader, DecodeError } from './bytes.ts';
import { AddressVersion, c32addressAt } from './c32.ts';

export const AuthType = { Standard: 0x04, Sponsored: 0x05 } as const;

export const HashMode = {
  P2PKH: 0x00,
  P2SH: 0x01,
  P2WPKH: 0x02,
  P2WSH: 0x03,
  /** Order-independent multisig (epoch 3.0+). */
  P2SHNonSequential: 0x05,
  P2WSHNonSequential: 0x07,
} as const;

export const KeyEncoding = { Compressed: 0x00, Uncompressed: 0x01 } as const;

export type AuthField =
  | { type: 'public_key'; compressed: boolean; /** 33-byte key, 0x hex */ publicKey: string }
  | { type: 'signature'; compressed: boolean; /** 65-byte recoverable signature, 0x hex */ signature: string };

interface SpendingConditionBase {
  hashMode: number;
  /** hash160 of the signer, 0x hex. */
  signer: string;
  /** c32 address of `signer` (version from hash mode and network). */
  signerAddress: string;
  nonce: bigint;
  fee: bigint;
}

export interface SingleSigSpendingCondition extends SpendingConditionBase {
  kind: 'single_sig';
  keyEncoding: number;
  /** 65 bytes, 0x hex. */
  signature: string;
}

export interface MultiSigSpendingCondition extends SpendingConditionBase {
  kind: 'multi_sig';
  /** Hash modes 0x05 / 0x07: signatures may come in any order. */
  orderIndependent: boolean;
  fields: AuthField[];
  signaturesRequired: number;
}

export type SpendingCondition = SingleSigSpendingCondition | MultiSigSpendingCondition;

export interface Authorization {
  type: 'standard' | 'sponsored';
  origin: SpendingCondition;
  sponsor?: SpendingCondition;
}

/** Address version of a signer with `hashMode` on mainnet / testnet. */
export function signerAddressVersion(hashMode: number, mainnet: boolean): number {
  if (hashMode === HashMode.P2PKH) return mainnet ? AddressVersion.MainnetSingleSig : AddressVersion.TestnetSingleSig;
  return mainnet ? AddressVersion.MainnetMultiSig : AddressVersion.TestnetMultiSig;
}

function readAuthField(r: ByteReader, index: number): AuthField {
  const at = r.pos;
  const id = r.u8('auth field id');
  switch (id) {
    case 0x00:
    case 0x01:
      return { type: 'public_key', compressed: id === 0x00, publicKey: r.hex(33, `auth field ${index} public key`) };
    case 0x02:
    case 0x03:
      return { type: 'signature', compressed: id === 0x02, signature: r.hex(65, `auth field ${index} signature`) };
    default:
      throw new DecodeError(`unknown auth field id 0x${id.toString(16).padStart(2, '0')} at offset ${at}`);
  }
}

export function readSpendingCondition(r: ByteReader, mainnet: boolean, role: string): SpendingCondition {
  const at = r.pos;
  const hashMode = r.u8(`${role} hash mode`);
  const single = hashMode === HashMode.P2PKH || hashMode === HashMode.P2WPKH;
  if (!single && hashMode !== HashMode.P2SH && hashMode !== HashMode.P2WSH && hashMode !== HashMode.P2SHNonSequential && hashMode !== HashMode.P2WSHNonSequential) {
    throw new DecodeError(`unknown ${role} hash mode 0x${hashMode.toString(16).padStart(2, '0')} at offset ${at}`);
  }
  r.need(20, `${role} signer`);
  const signerAddress = c32addressAt(signerAddressVersion(hashMode, mainnet), r.buf, r.pos);
  const signer = r.hex(20, `${role} signer`);
  const nonce = r.u64(`${role} nonce`);
  const fee = r.u64(`${role} fee`);
  if (single) {
    const keyEncoding = r.u8(`${role} key encoding`);
    if (keyEncoding > 1) throw new DecodeError(`unknown ${role} key encoding ${keyEncoding} at offset ${r.pos - 1}`);
    if (hashMode === HashMode.P2WPKH && keyEncoding !== KeyEncoding.Compressed) {
      throw new DecodeError(`${role} spending condition at offset ${at}: P2WPKH requires a compressed key`);
    }
    const signature = r.hex(65, `${role} signature`);
    return { kind: 'single_sig', hashMode, signer, signerAddress, nonce, fee, keyEncoding, signature };
  }
  const count = r.u32(`${role} auth field count`);
  // each field is at least 34 bytes: reject impossible counts before looping
  if (count * 34 > r.remaining) throw new DecodeError(`truncated: ${count} auth fields at offset ${r.pos - 4} cannot fit in ${r.remaining} bytes`);
  const fields: AuthField[] = new Array(count);
  for (let i = 0; i < count; i++) fields[i] = readAuthField(r, i);
  const signaturesRequired = r.u16(`${role} signatures required`);
  if (hashMode === HashMode.P2WSH || hashMode === HashMode.P2WSHNonSequential) {
    for (const f of fields) {
      if (!f.compressed) throw new DecodeError(`${role} spending condition at offset ${at}: P2WSH allows compressed keys only`);
    }
  }
  const orderIndependent = hashMode === HashMode.P2SHNonSequential || hashMode === HashMode.P2WSHNonSequential;
  return { kind: 'multi_sig', hashMode, signer, signerAddress, nonce, fee, orderIndependent, fields, signaturesRequired };
}

export function readAuthorization(r: ByteReader, mainnet: boolean): Authorization {
  const at = r.pos;
  const type = r.u8('auth type');
  if (type === AuthType.Standard) return { type: 'standard', origin: readSpendingCondition(r, mainnet, 'origin') };
  if (type === AuthType.Sponsored) {
    const origin = readSpendingCondition(r, mainnet, 'origin');
    return { type: 'sponsored', origin, sponsor: readSpendingCondition(r, mainnet, 'sponsor') };
  }
  throw new DecodeError(`unknown auth type 0x${type.toString(16).padStart(2, '0')} at offset ${at}`);
}
