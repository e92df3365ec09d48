// Bitcoin addresses, both ways: base58check (P2PKH / P2SH) and bech32 / bech32m (segwit v0 / v1,
// BIP-173 / BIP-350); the PoX reward address tuple {version: (buff 1), hashbytes: (buff 20|32)} and
// the Bitcoin address it stands for; a Stacks address's Bitcoin twin (same hash160, the matching
// version byte), as the reference API shows them. One codec for the API's readers (burnchain, PoX,
// Rosetta data) and for Rosetta construction and the benchmark generator.
import { createHash } from 'node:crypto';
import { parsePrincipal } from '../codec/c32.ts';

export type BtcNetwork = 'mainnet' | 'testnet' | 'regtest';

const sha256d = (b: Uint8Array): Buffer => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B58_INDEX = new Map([...B58].map((c, i) => [c, BigInt(i)]));

function base58Encode(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = B58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

function base58Decode(text: string): Buffer | null {
  let n = 0n;
  for (const c of text) {
    const d = B58_INDEX.get(c);
    if (d === undefined) return null;
    n = n * 58n + d;
  }
  const body: number[] = [];
  while (n > 0n) {
    body.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  let lead = 0;
  while (lead < text.length && text[lead] === '1') lead++;
  return Buffer.from([...new Array<number>(lead).fill(0), ...body]);
}

/** Base58Check of a version byte and payload (P2PKH / P2SH addresses). */
export function base58CheckEncode(version: number, payload: Uint8Array): string {
  const body = Buffer.concat([Uint8Array.of(version), payload]);
  return base58Encode(Buffer.concat([body, sha256d(body).subarray(0, 4)]));
}

/** {version, payload} of a valid base58check string, else null. */
export function base58CheckDecode(text: string): { version: number; payload: Buffer } | null {
  const raw = base58Decode(text);
  if (!raw || raw.length < 5) return null;
  const body = raw.subarray(0, raw.length - 4);
  if (!sha256d(body).subarray(0, 4).equals(raw.subarray(raw.length - 4))) return null;
  return { version: body[0], payload: body.subarray(1) };
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_CONST = { bech32: 1, bech32m: 0x2bc830a3 } as const;

function polymod(values: number[]): number {
  const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GEN[i];
  }
  return chk >>> 0;
}

const hrpExpand = (hrp: string): number[] => [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];

function convertBits(data: Iterable<number>, from: number, to: number, pad: boolean): number[] | null {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const max = (1 << to) - 1;
  for (const v of data) {
    acc = (acc << from) | v;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & max);
    }
  }
  if (pad && bits > 0) out.push((acc << (to - bits)) & max);
  else if (!pad && (bits >= from || ((acc << (to - bits)) & max))) return null;
  return out;
}

/** A segwit address: witness version 0 in bech32, later versions in bech32m (BIP-350). */
export function segwitEncode(hrp: string, witnessVersion: number, program: Uint8Array): string {
  const data = [witnessVersion, ...convertBits(program, 8, 5, true)!];
  const mod = polymod([...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0]) ^ (witnessVersion === 0 ? BECH32_CONST.bech32 : BECH32_CONST.bech32m);
  const checksum = [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...checksum].map((d) => BECH32[d]).join('')}`;
}

/** {hrp, version, program} of a valid segwit address, else null. */
export function segwitDecode(text: string): { hrp: string; version: number; program: Buffer } | null {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return null;
  const lower = text.toLowerCase();
  const sep = lower.lastIndexOf('1');
  if (sep < 1 || sep + 7 > lower.length || lower.length > 90) return null;
  const hrp = lower.slice(0, sep);
  const data: number[] = [];
  for (const c of lower.slice(sep + 1)) {
    const d = BECH32.indexOf(c);
    if (d < 0) return null;
    data.push(d);
  }
  const version = data[0];
  const expected = version === 0 ? BECH32_CONST.bech32 : BECH32_CONST.bech32m;
  if (polymod([...hrpExpand(hrp), ...data]) !== expected) return null;
  const program = convertBits(data.slice(1, -6), 5, 8, false);
  if (!program || program.length < 2 || program.length > 40 || version > 16) return null;
  if (version === 0 && program.length !== 20 && program.length !== 32) return null;
  return { hrp, version, program: Buffer.from(program) };
}

const P2PKH = { mainnet: 0x00, testnet: 0x6f, regtest: 0x6f } as const;
const P2SH = { mainnet: 0x05, testnet: 0xc4, regtest: 0xc4 } as const;
const HRP = { mainnet: 'bc', testnet: 'tb', regtest: 'bcrt' } as const;

/** A Bitcoin address string any of the three networks accepts (base58check or segwit). */
export function isValidBitcoinAddress(text: string): boolean {
  const b58 = base58CheckDecode(text);
  if (b58) return b58.payload.length === 20 && [0x00, 0x05, 0x6f, 0xc4].includes(b58.version);
  const sw = segwitDecode(text);
  return !!sw && (sw.hrp === 'bc' || sw.hrp === 'tb' || sw.hrp === 'bcrt');
}

/**
 * A PoX reward address tuple. Versions as in the PoX contracts (pox-2+): 0 p2pkh, 1 p2sh,
 * 2 p2sh-p2wpkh, 3 p2sh-p2wsh, 4 p2wpkh, 5 p2wsh, 6 p2tr.
 */
export interface PoxAddress {
  version: number;
  hashbytes: Buffer;
}

/** The Bitcoin address of a PoX reward address tuple; null for an unknown version or length. */
export function poxAddressToBtc(pox: { version: number; hashbytes: Uint8Array }, network: BtcNetwork): string | null {
  const { version, hashbytes } = pox;
  switch (version) {
    case 0:
      return hashbytes.length === 20 ? base58CheckEncode(P2PKH[network], hashbytes) : null;
    case 1:
    case 2:
    case 3:
      return hashbytes.length === 20 ? base58CheckEncode(P2SH[network], hashbytes) : null;
    case 4:
      return hashbytes.length === 20 ? segwitEncode(HRP[network], 0, hashbytes) : null;
    case 5:
      return hashbytes.length === 32 ? segwitEncode(HRP[network], 0, hashbytes) : null;
    case 6:
      return hashbytes.length === 32 ? segwitEncode(HRP[network], 1, hashbytes) : null;
    default:
      return null;
  }
}

/**
 * The PoX tuple of a Bitcoin address on the given network, else null. Testnet and regtest share
 * their base58 version bytes, and either accepts both segwit prefixes (tb1..., bcrt1...).
 */
export function btcToPoxAddress(address: string, network: BtcNetwork): PoxAddress | null {
  const segwit = segwitDecode(address);
  if (segwit) {
    const hrpOk = network === 'mainnet' ? segwit.hrp === HRP.mainnet : segwit.hrp === HRP.testnet || segwit.hrp === HRP.regtest;
    if (!hrpOk) return null;
    if (segwit.version === 0 && segwit.program.length === 20) return { version: 4, hashbytes: segwit.program };
    if (segwit.version === 0 && segwit.program.length === 32) return { version: 5, hashbytes: segwit.program };
    if (segwit.version === 1 && segwit.program.length === 32) return { version: 6, hashbytes: segwit.program };
    return null;
  }
  const b58 = base58CheckDecode(address);
  if (!b58 || b58.payload.length !== 20) return null;
  if (b58.version === P2PKH[network]) return { version: 0, hashbytes: b58.payload };
  if (b58.version === P2SH[network]) return { version: 1, hashbytes: b58.payload };
  return null;
}

/** Stacks address version -> the Bitcoin version byte of the same kind (c32check's mapping). */
const STX_TO_BTC_VERSION: Record<number, number> = { 22: 0x00, 20: 0x05, 26: 0x6f, 21: 0xc4 };

/** The Bitcoin address with the same hash160 as a Stacks standard address, else null. */
export function stxToBtcAddress(stxAddress: string): string | null {
  try {
    const p = parsePrincipal(stxAddress);
    if (p.contractName !== undefined) return null;
    return base58CheckEncode(STX_TO_BTC_VERSION[p.version] ?? p.version, Buffer.from(p.hash160, 'hex'));
  } catch {
    return null;
  }
}
