// PoX reward addresses: the Clarity tuple {version: (buff 1), hashbytes: (buff 20|32)} and the
// Bitcoin address it stands for (base58check P2PKH/P2SH, bech32 P2WPKH/P2WSH, bech32m P2TR), both
// ways. Version bytes as in the PoX contracts: 0 p2pkh, 1 p2sh, 2 p2sh-p2wpkh, 3 p2sh-p2wsh,
// 4 p2wpkh, 5 p2wsh, 6 p2tr.
import { createHash } from 'node:crypto';

const sha256 = (b: Uint8Array): Buffer => createHash('sha256').update(b).digest();
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58Encode(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
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

function base58Decode(text: string): Buffer | undefined {
  let n = 0n;
  for (const c of text) {
    const v = B58.indexOf(c);
    if (v < 0) return undefined;
    n = n * 58n + BigInt(v);
  }
  const hex = n === 0n ? '' : n.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  let zeros = 0;
  while (text[zeros] === '1') zeros++;
  return Buffer.concat([Buffer.alloc(zeros), body]);
}

/** Base58Check of a version byte and payload (P2PKH / P2SH addresses). */
export function base58check(version: number, payload: Uint8Array): string {
  const body = Buffer.concat([Buffer.of(version), payload]);
  return base58Encode(Buffer.concat([body, sha256(sha256(body)).subarray(0, 4)]));
}

// BIP-173 / BIP-350.
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32M_CONST = 0x2bc830a3;

function polymod(values: number[]): number {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= gen[i];
  }
  return chk >>> 0;
}

const hrpExpand = (hrp: string): number[] => [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];

function convertBits(data: Iterable<number>, from: number, to: number, pad: boolean): number[] | undefined {
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
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & max);
  } else if (bits >= from || ((acc << (to - bits)) & max) !== 0) return undefined;
  return out;
}

function segwitEncode(hrp: string, witnessVersion: number, program: Uint8Array): string {
  const data = [witnessVersion, ...convertBits(program, 8, 5, true)!];
  const constant = witnessVersion === 0 ? 1 : BECH32M_CONST;
  const mod = polymod([...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0]) ^ constant;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...checksum].map((d) => BECH32[d]).join('')}`;
}

function segwitDecode(address: string): { hrp: string; version: number; program: Buffer } | undefined {
  const lower = address.toLowerCase();
  if (lower !== address && address.toUpperCase() !== address) return undefined;
  const sep = lower.lastIndexOf('1');
  if (sep < 1 || lower.length - sep < 7) return undefined;
  const hrp = lower.slice(0, sep);
  const data = [...lower.slice(sep + 1)].map((c) => BECH32.indexOf(c));
  if (data.some((d) => d < 0)) return undefined;
  const check = polymod([...hrpExpand(hrp), ...data]);
  const version = data[0];
  if (check !== (version === 0 ? 1 : BECH32M_CONST)) return undefined;
  const program = convertBits(data.slice(1, -6), 5, 8, false);
  if (!program || program.length < 2 || program.length > 40 || version > 16) return undefined;
  return { hrp, version, program: Buffer.from(program) };
}

export interface PoxAddress {
  version: number;
  hashbytes: Buffer;
}

const P2PKH = { mainnet: 0x00, testnet: 0x6f };
const P2SH = { mainnet: 0x05, testnet: 0xc4 };
const HRP = { mainnet: 'bc', testnet: 'tb' };

/** The Bitcoin address of a PoX address tuple, or undefined when version and length do not fit. */
export function poxAddressToBtc(pox: PoxAddress, mainnet: boolean): string | undefined {
  const net = mainnet ? 'mainnet' : 'testnet';
  const { version, hashbytes } = pox;
  if (version <= 3) return hashbytes.length === 20 ? base58check(version === 0 ? P2PKH[net] : P2SH[net], hashbytes) : undefined;
  if (version === 4) return hashbytes.length === 20 ? segwitEncode(HRP[net], 0, hashbytes) : undefined;
  if (version === 5) return hashbytes.length === 32 ? segwitEncode(HRP[net], 0, hashbytes) : undefined;
  if (version === 6) return hashbytes.length === 32 ? segwitEncode(HRP[net], 1, hashbytes) : undefined;
  return undefined;
}

/** The PoX tuple of a Bitcoin address on the given network, or undefined for anything else. */
export function btcToPoxAddress(address: string, mainnet: boolean): PoxAddress | undefined {
  const net = mainnet ? 'mainnet' : 'testnet';
  const segwit = segwitDecode(address);
  // Regtest addresses (bcrt1...) are accepted on testnet too.
  if (segwit && (segwit.hrp === HRP[net] || (!mainnet && segwit.hrp === 'bcrt'))) {
    if (segwit.version === 0 && segwit.program.length === 20) return { version: 4, hashbytes: segwit.program };
    if (segwit.version === 0 && segwit.program.length === 32) return { version: 5, hashbytes: segwit.program };
    if (segwit.version === 1 && segwit.program.length === 32) return { version: 6, hashbytes: segwit.program };
    return undefined;
  }
  const raw = base58Decode(address);
  if (!raw || raw.length !== 25) return undefined;
  const body = raw.subarray(0, 21);
  if (!sha256(sha256(body)).subarray(0, 4).equals(raw.subarray(21))) return undefined;
  if (body[0] === P2PKH[net]) return { version: 0, hashbytes: Buffer.from(body.subarray(1)) };
  if (body[0] === P2SH[net]) return { version: 1, hashbytes: Buffer.from(body.subarray(1)) };
  return undefined;
}
