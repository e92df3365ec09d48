// c32check Stacks addresses: encode (version, hash160) -> "S" + version char + c32(hash160 ++ checksum),
// and strict parsing/validation of principals ("SP…" or "SP….contract-name").
// Chain data repeats the same few thousand principals over and over, so encodings are memoised:
// the double SHA-256 checksum is what costs, and a Map hit skips it.
import { createHash } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { DecodeError } from './bytes.ts';

export const C32_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Address versions (the second character of an address). */
export const AddressVersion = {
  MainnetSingleSig: 22, // 'P'
  MainnetMultiSig: 20, // 'M'
  TestnetSingleSig: 26, // 'T'
  TestnetMultiSig: 21, // 'N'
} as const;

const C32_INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < C32_ALPHABET.length; i++) C32_INDEX[C32_ALPHABET.charCodeAt(i)] = i;

const CONTRACT_NAME = /^(?:[a-zA-Z][a-zA-Z0-9_-]*|__transient)$/;
const MAX_CONTRACT_NAME_LENGTH = 128;

function checksum(version: number, hash160: Uint8Array): Buffer {
  const first = createHash('sha256').update(Uint8Array.of(version)).update(hash160).digest();
  return createHash('sha256').update(first).digest().subarray(0, 4);
}

/** c32 digits of `bytes` read as one big-endian number, with one '0' per leading zero byte. */
export function c32encode(bytes: Uint8Array): string {
  const digits: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = bytes.length - 1; i >= 0; i--) {
    acc |= bytes[i] << bits;
    bits += 8;
    while (bits >= 5) {
      digits.push(acc & 31);
      acc >>>= 5;
      bits -= 5;
    }
  }
  if (bits > 0) digits.push(acc & 31);
  let top = digits.length;
  while (top > 0 && digits[top - 1] === 0) top--;
  let lead = 0;
  while (lead < bytes.length && bytes[lead] === 0) lead++;
  let out = '0'.repeat(lead);
  for (let i = top - 1; i >= 0; i--) out += C32_ALPHABET[digits[i]];
  return out;
}

/** Inverse of c32encode for canonical (uppercase, unnormalised) input; null on a bad character. */
export function c32decode(text: string): Buffer | null {
  let lead = 0;
  while (lead < text.length && text.charCodeAt(lead) === 48) lead++;
  const rev: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = text.length - 1; i >= lead; i--) {
    const c = text.charCodeAt(i);
    const d = c < 128 ? C32_INDEX[c] : -1;
    if (d < 0) return null;
    acc |= d << bits;
    bits += 5;
    if (bits >= 8) {
      rev.push(acc & 0xff);
      acc >>>= 8;
      bits -= 8;
    }
  }
  if (bits > 0 && acc !== 0) rev.push(acc);
  let top = rev.length;
  while (top > 0 && rev[top - 1] === 0) top--;
  const out = Buffer.alloc(lead + top);
  for (let i = 0; i < top; i++) out[lead + i] = rev[top - 1 - i];
  return out;
}

const cache = new Map<string, string>();
const CACHE_LIMIT = 200_000;

function encodeAddress(version: number, hash160: Uint8Array): string {
  if (!Number.isInteger(version) || version < 0 || version >= 32) {
    throw new DecodeError(`address version ${version} is out of range 0..31`);
  }
  const body = Buffer.allocUnsafe(24);
  body.set(hash160, 0);
  checksum(version, hash160).copy(body, 20);
  return 'S' + C32_ALPHABET[version] + c32encode(body);
}

/** The c32check address of a 20-byte hash160 (hex, with or without 0x). */
export function c32address(version: number, hash160Hex: string): string {
  const hex = hash160Hex.startsWith('0x') ? hash160Hex.slice(2) : hash160Hex;
  const key = version + hex;
  let addr = cache.get(key);
  if (addr === undefined) {
    const bytes = Buffer.from(hex, 'hex');
    if (bytes.length !== 20 || hex.length !== 40) throw new DecodeError(`hash160 must be 20 bytes of hex, got ${JSON.stringify(hash160Hex)}`);
    addr = remember(key, encodeAddress(version, bytes));
  }
  return addr;
}

/** The address of the 20 bytes at `buf[offset..offset+20)` (used by the binary decoders). */
export function c32addressAt(version: number, buf: Buffer, offset: number): string {
  // latin1: one char per byte, half the key of hex and no digit conversion (this is hot).
  const key = String.fromCharCode(version) + buf.toString('latin1', offset, offset + 20);
  let addr = cache.get(key);
  if (addr === undefined) addr = remember(key, encodeAddress(version, buf.subarray(offset, offset + 20)));
  return addr;
}

function remember(key: string, addr: string): string {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, addr);
  return addr;
}

export interface ParsedPrincipal {
  version: number;
  /** 40 lowercase hex digits, no prefix. */
  hash160: string;
  /** The address part ("SP…"). */
  address: string;
  contractName?: string;
}

/** Strictly parses "S<version><c32>" or "S<version><c32>.<contract-name>"; throws DecodeError otherwise. */
export function parsePrincipal(principal: string): ParsedPrincipal {
  // Requests name the same principals again and again; validating one costs two SHA-256s and an
  // encode (~14 µs, a quarter of a with_transfers answer). Only valid ones are kept, bounded.
  const known = parsedPrincipals.get(principal);
  if (known) return known;
  const parsed = parsePrincipalUncached(principal);
  if (parsedPrincipals.size >= MAX_PARSED_PRINCIPALS) parsedPrincipals.clear();
  parsedPrincipals.set(principal, parsed);
  return parsed;
}

const MAX_PARSED_PRINCIPALS = 50_000;
const parsedPrincipals = new Map<string, Readonly<ParsedPrincipal>>();

function parsePrincipalUncached(principal: string): ParsedPrincipal {
  const dot = principal.indexOf('.');
  const address = dot < 0 ? principal : principal.slice(0, dot);
  const where = () => `invalid principal ${JSON.stringify(principal.length > 200 ? principal.slice(0, 200) + '…' : principal)}`;
  if (address.length < 5 || address.length > 52 || address.charCodeAt(0) !== 83 /* S */) {
    throw new DecodeError(`${where()}: not an "S…" c32 address`);
  }
  const vc = address.charCodeAt(1);
  const version = vc < 128 ? C32_INDEX[vc] : -1;
  if (version < 0) throw new DecodeError(`${where()}: bad version character`);
  const body = c32decode(address.slice(2));
  if (body === null) throw new DecodeError(`${where()}: character outside the c32 alphabet`);
  if (body.length !== 24) throw new DecodeError(`${where()}: decodes to ${body.length} bytes, expected 20 + 4 checksum`);
  const hash = body.subarray(0, 20);
  if (!checksum(version, hash).equals(body.subarray(20))) throw new DecodeError(`${where()}: checksum mismatch`);
  const hash160 = hash.toString('hex');
  if (c32address(version, hash160) !== address) throw new DecodeError(`${where()}: not in canonical c32 form`);
  if (dot < 0) return { version, hash160, address };
  const contractName = principal.slice(dot + 1);
  if (contractName.length > MAX_CONTRACT_NAME_LENGTH || !CONTRACT_NAME.test(contractName)) {
    throw new DecodeError(`${where()}: bad contract name`);
  }
  return { version, hash160, address, contractName };
}

/** True when parsePrincipal would accept `principal`. */
export function isValidPrincipal(principal: string): boolean {
  try {
    parsePrincipal(principal);
    return true;
  } catch {
    return false;
  }
}
