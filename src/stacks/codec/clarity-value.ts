// Structured Clarity values (SIP-005 §13 wire format) for code that must read inside a value —
// e.g. the tuple fields of a PoX print event `(ok (tuple (name "stack-stx") …))`.
// Hot paths that only need the `repr` string use clarity-repr.ts, which renders straight from bytes.
import { Buffer } from 'node:buffer';
import { ByteReader, DecodeError } from './bytes.ts';
import { c32addressAt } from './c32.ts';

/** Wire type ids. */
export const ClarityTypeId = {
  Int: 0x00,
  UInt: 0x01,
  Buffer: 0x02,
  BoolTrue: 0x03,
  BoolFalse: 0x04,
  PrincipalStandard: 0x05,
  PrincipalContract: 0x06,
  ResponseOk: 0x07,
  ResponseErr: 0x08,
  OptionalNone: 0x09,
  OptionalSome: 0x0a,
  List: 0x0b,
  Tuple: 0x0c,
  StringAscii: 0x0d,
  StringUtf8: 0x0e,
} as const;

/**
 * Nesting limit. stacks-core's MAX_TYPE_DEPTH is 32; the reference's decoder stops at 16, but the node
 * can emit values nested deeper than that and ingestion must not fail on them.
 */
export const MAX_CLARITY_DEPTH = 32;
/** Longest tuple key (Clarity names are at most 128 bytes). */
export const MAX_CLARITY_NAME_LENGTH = 128;

export interface TupleEntry {
  name: string;
  value: ClarityValue;
}

export type ClarityValue =
  | { type: 'int'; value: bigint }
  | { type: 'uint'; value: bigint }
  /** A view into the decoded input (not a copy). */
  | { type: 'buffer'; value: Uint8Array }
  | { type: 'bool'; value: boolean }
  /** `value` is the c32 address. */
  | { type: 'principal_standard'; value: string; address: string; version: number }
  /** `value` is "address.contract-name". */
  | { type: 'principal_contract'; value: string; address: string; version: number; contractName: string }
  | { type: 'ok'; value: ClarityValue }
  | { type: 'err'; value: ClarityValue }
  | { type: 'some'; value: ClarityValue }
  | { type: 'none' }
  | { type: 'list'; items: ClarityValue[] }
  /** Entries sorted by name (byte order), unique, as the reference renders them. */
  | { type: 'tuple'; entries: TupleEntry[] }
  /** Raw bytes as a latin1 string (valid string-ascii is printable ASCII). */
  | { type: 'string_ascii'; value: string }
  /** UTF-8 decoded; invalid sequences become U+FFFD (as the reference does). */
  | { type: 'string_utf8'; value: string };

export function unknownTypeError(id: number, offset: number): DecodeError {
  return new DecodeError(`unknown Clarity type id 0x${id.toString(16).padStart(2, '0')} at offset ${offset}`);
}

export function tooDeepError(offset: number): DecodeError {
  return new DecodeError(`Clarity value nested deeper than ${MAX_CLARITY_DEPTH} levels at offset ${offset}`);
}

/** Reads a u32 element count and rejects counts that cannot fit in what is left (each element takes >= minBytes). */
export function readCount(r: ByteReader, what: string, minBytes: number): number {
  const n = r.u32(`${what} length`);
  if (n * minBytes > r.remaining) {
    throw new DecodeError(`truncated: ${what} of ${n} elements at offset ${r.pos - 4} needs at least ${n * minBytes} bytes, only ${r.remaining} left`);
  }
  return n;
}

/** Tuple key: u8 length (<= 128) + bytes. */
export function readTupleName(r: ByteReader): string {
  const len = r.u8('tuple key length');
  if (len > MAX_CLARITY_NAME_LENGTH) throw new DecodeError(`tuple key of ${len} bytes at offset ${r.pos - 1} exceeds ${MAX_CLARITY_NAME_LENGTH}`);
  r.need(len, 'tuple key');
  const name = r.buf.toString('utf8', r.pos, r.pos + len);
  r.pos += len;
  return name;
}

/** Byte order of UTF-8 strings (what a Rust BTreeMap<String> sorts by). */
export function compareNames(a: string, b: string): number {
  if (a === b) return 0;
  // UTF-16 order equals UTF-8 byte order except around surrogates; names are ASCII in practice.
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      if (x < 0xd800 && y < 0xd800) return x - y;
      return Buffer.compare(Buffer.from(a), Buffer.from(b));
    }
  }
  return a.length - b.length;
}

/** Stable sort by name, keeping the last of duplicate names (a BTreeMap insert overwrites the value). */
export function sortUnique<T>(items: T[], nameOf: (t: T) => string): T[] {
  const sorted = items.slice().sort((a, b) => compareNames(nameOf(a), nameOf(b)));
  const out: T[] = [];
  for (const it of sorted) {
    if (out.length > 0 && nameOf(out[out.length - 1]) === nameOf(it)) out[out.length - 1] = it;
    else out.push(it);
  }
  return out;
}

/** Standard principal body (version + hash160) at the reader -> address. */
export function readAddress(r: ByteReader, field: string): { version: number; address: string } {
  r.need(21, field);
  const version = r.buf[r.pos];
  if (version >= 32) throw new DecodeError(`address version ${version} out of range 0..31 at offset ${r.pos} reading ${field}`);
  const address = c32addressAt(version, r.buf, r.pos + 1);
  r.pos += 21;
  return { version, address };
}

/** Contract name of a contract principal: u8 length 1..128. */
export function readContractName(r: ByteReader, field: string): string {
  const len = r.u8(`${field} length`);
  if (len < 1 || len > 128) throw new DecodeError(`contract name length ${len} at offset ${r.pos - 1} reading ${field} is outside 1..128`);
  r.need(len, field);
  const name = r.buf.toString('utf8', r.pos, r.pos + len);
  r.pos += len;
  return name;
}

/** 16 bytes big-endian at `off` as an unsigned bigint. */
export function u128At(buf: Buffer, off: number): bigint {
  return (buf.readBigUInt64BE(off) << 64n) | buf.readBigUInt64BE(off + 8);
}

const TWO_128 = 1n << 128n;

/** 16 bytes two's complement at `off` as a signed bigint. */
export function i128At(buf: Buffer, off: number): bigint {
  const v = u128At(buf, off);
  return buf[off] & 0x80 ? v - TWO_128 : v;
}

/** Reads one value at the reader. */
export function readClarityValue(r: ByteReader, depth = 0): ClarityValue {
  if (depth >= MAX_CLARITY_DEPTH) throw tooDeepError(r.pos);
  const at = r.pos;
  const id = r.u8('Clarity type id');
  switch (id) {
    case ClarityTypeId.Int: {
      r.need(16, 'int');
      const v = i128At(r.buf, r.pos);
      r.pos += 16;
      return { type: 'int', value: v };
    }
    case ClarityTypeId.UInt: {
      r.need(16, 'uint');
      const v = u128At(r.buf, r.pos);
      r.pos += 16;
      return { type: 'uint', value: v };
    }
    case ClarityTypeId.Buffer:
      return { type: 'buffer', value: r.bytes(r.u32('buffer length'), 'buffer') };
    case ClarityTypeId.BoolTrue:
      return { type: 'bool', value: true };
    case ClarityTypeId.BoolFalse:
      return { type: 'bool', value: false };
    case ClarityTypeId.PrincipalStandard: {
      const { version, address } = readAddress(r, 'standard principal');
      return { type: 'principal_standard', value: address, address, version };
    }
    case ClarityTypeId.PrincipalContract: {
      const { version, address } = readAddress(r, 'contract principal');
      const contractName = readContractName(r, 'contract principal name');
      return { type: 'principal_contract', value: `${address}.${contractName}`, address, version, contractName };
    }
    case ClarityTypeId.ResponseOk:
      return { type: 'ok', value: readClarityValue(r, depth + 1) };
    case ClarityTypeId.ResponseErr:
      return { type: 'err', value: readClarityValue(r, depth + 1) };
    case ClarityTypeId.OptionalNone:
      return { type: 'none' };
    case ClarityTypeId.OptionalSome:
      return { type: 'some', value: readClarityValue(r, depth + 1) };
    case ClarityTypeId.List: {
      const n = readCount(r, 'list', 1);
      const items: ClarityValue[] = new Array(n);
      for (let i = 0; i < n; i++) items[i] = readClarityValue(r, depth + 1);
      return { type: 'list', items };
    }
    case ClarityTypeId.Tuple: {
      const n = readCount(r, 'tuple', 2);
      let entries: TupleEntry[] = new Array(n);
      let sorted = true;
      for (let i = 0; i < n; i++) {
        const name = readTupleName(r);
        entries[i] = { name, value: readClarityValue(r, depth + 1) };
        if (i > 0 && sorted && compareNames(entries[i - 1].name, name) >= 0) sorted = false;
      }
      if (!sorted) entries = sortUnique(entries, (e) => e.name);
      return { type: 'tuple', entries };
    }
    case ClarityTypeId.StringAscii: {
      const len = r.u32('string-ascii length');
      r.need(len, 'string-ascii');
      const value = r.buf.toString('latin1', r.pos, r.pos + len);
      r.pos += len;
      return { type: 'string_ascii', value };
    }
    case ClarityTypeId.StringUtf8: {
      const len = r.u32('string-utf8 length');
      r.need(len, 'string-utf8');
      const value = r.buf.toString('utf8', r.pos, r.pos + len);
      r.pos += len;
      return { type: 'string_utf8', value };
    }
    default:
      throw unknownTypeError(id, at);
  }
}

/** Walks one value, checking its structure, without building anything. */
export function skipClarityValue(r: ByteReader, depth = 0): void {
  if (depth >= MAX_CLARITY_DEPTH) throw tooDeepError(r.pos);
  const at = r.pos;
  const id = r.u8('Clarity type id');
  switch (id) {
    case ClarityTypeId.Int:
    case ClarityTypeId.UInt:
      r.need(16, id === 0 ? 'int' : 'uint');
      r.pos += 16;
      return;
    case ClarityTypeId.Buffer:
      r.bytes(r.u32('buffer length'), 'buffer');
      return;
    case ClarityTypeId.StringAscii:
      r.bytes(r.u32('string-ascii length'), 'string-ascii');
      return;
    case ClarityTypeId.StringUtf8:
      r.bytes(r.u32('string-utf8 length'), 'string-utf8');
      return;
    case ClarityTypeId.BoolTrue:
    case ClarityTypeId.BoolFalse:
    case ClarityTypeId.OptionalNone:
      return;
    case ClarityTypeId.PrincipalStandard:
      readAddress(r, 'standard principal');
      return;
    case ClarityTypeId.PrincipalContract:
      readAddress(r, 'contract principal');
      readContractName(r, 'contract principal name');
      return;
    case ClarityTypeId.ResponseOk:
    case ClarityTypeId.ResponseErr:
    case ClarityTypeId.OptionalSome:
      skipClarityValue(r, depth + 1);
      return;
    case ClarityTypeId.List: {
      const n = readCount(r, 'list', 1);
      for (let i = 0; i < n; i++) skipClarityValue(r, depth + 1);
      return;
    }
    case ClarityTypeId.Tuple: {
      const n = readCount(r, 'tuple', 2);
      for (let i = 0; i < n; i++) {
        readTupleName(r);
        skipClarityValue(r, depth + 1);
      }
      return;
    }
    default:
      throw unknownTypeError(id, at);
  }
}

/** The value of tuple field `name`, or undefined (also when `cv` is not a tuple). */
export function tupleGet(cv: ClarityValue | undefined, name: string): ClarityValue | undefined {
  if (cv?.type !== 'tuple') return undefined;
  for (const e of cv.entries) if (e.name === name) return e.value;
  return undefined;
}

/** Unwraps `(ok v)` / `(some v)`; anything else is returned unchanged. */
export function unwrap(cv: ClarityValue): ClarityValue {
  return cv.type === 'ok' || cv.type === 'some' ? cv.value : cv;
}
