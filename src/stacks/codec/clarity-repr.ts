// The reference API's `repr` and `type_signature` strings for Clarity values, rendered straight from
// the serialized bytes (one pass, no intermediate objects) or from a structured ClarityValue.
// Rules (stacks-encoding-native-js `types.rs`, checked against the goldens):
//   int `-5`, uint `u10`, buffer `0x0102`, `true`/`false`, principals with a leading quote `'SP…`,
//   `(ok v)` `(err v)` `none` `(some v)`, `(list a b)`, `(tuple (a u1) (b 0x00))` sorted by key,
//   string-ascii `"…"` with Rust's ascii::escape_default (\t \r \n \\ \' \" and \xNN for the rest),
//   string-utf8 `u"…"` with every non-ASCII char as `\u{<its UTF-8 bytes in hex>}`.
//   Type signatures: `(buff N)`, `(string-ascii N)`, `(string-utf8 4×chars)`, `(list N <first item>)`,
//   `(optional UnknownType)` for none, `(response T UnknownType)` / `(response UnknownType T)`.
import type { Buffer } from 'node:buffer';
import { ByteReader, DecodeError } from './bytes.ts';
import {
  ClarityTypeId,
  MAX_CLARITY_DEPTH,
  readAddress,
  readContractName,
  readCount,
  readTupleName,
  skipClarityValue,
  sortUnique,
  compareNames,
  tooDeepError,
  unknownTypeError,
  u128At,
  i128At,
  type ClarityValue,
} from './clarity-value.ts';

const HEX2: string[] = [];
for (let i = 0; i < 256; i++) HEX2.push(i.toString(16).padStart(2, '0'));

/** escape_default of each byte; PLAIN marks bytes that print as themselves. */
const ESC: string[] = [];
const PLAIN = new Uint8Array(256);
for (let b = 0; b < 256; b++) {
  if (b === 0x09) ESC.push('\\t');
  else if (b === 0x0a) ESC.push('\\n');
  else if (b === 0x0d) ESC.push('\\r');
  else if (b === 0x22) ESC.push('\\"');
  else if (b === 0x27) ESC.push("\\'");
  else if (b === 0x5c) ESC.push('\\\\');
  else if (b >= 0x20 && b < 0x7f) {
    ESC.push(String.fromCharCode(b));
    PLAIN[b] = 1;
  } else ESC.push('\\x' + HEX2[b]);
}

/** u128 at `off` in decimal; Number arithmetic below 2^53 (the common case), bigint above. */
export function uintDecimal(buf: Buffer, off: number): string {
  if ((buf.readUInt32BE(off) | buf.readUInt32BE(off + 4)) === 0) {
    const mid = buf.readUInt32BE(off + 8);
    if (mid < 0x200000) return String(mid * 4294967296 + buf.readUInt32BE(off + 12));
  }
  return u128At(buf, off).toString();
}

/** i128 (two's complement) at `off` in decimal. */
export function intDecimal(buf: Buffer, off: number): string {
  if ((buf[off] & 0x80) === 0) return uintDecimal(buf, off);
  if ((buf.readUInt32BE(off) & buf.readUInt32BE(off + 4)) === 0xffffffff) {
    const mid = buf.readUInt32BE(off + 8);
    // high 64 bits all ones: value = low64 - 2^64, exact in a double when |value| <= 2^53
    if (mid >= 0xffe00000) return String((mid - 4294967296) * 4294967296 + buf.readUInt32BE(off + 12));
  }
  return i128At(buf, off).toString();
}

/** `"…"` for the string-ascii bytes [start, end). */
export function asciiRepr(buf: Buffer, start: number, end: number): string {
  let out = '"';
  let run = start;
  for (let i = start; i < end; i++) {
    const b = buf[i];
    if (PLAIN[b] === 0) {
      if (run < i) out += buf.toString('latin1', run, i);
      out += ESC[b];
      run = i + 1;
    }
  }
  if (run < end) out += buf.toString('latin1', run, end);
  return out + '"';
}

/** `"…"` for a latin1 string (structured string-ascii). */
function asciiStringRepr(s: string): string {
  let out = '"';
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff || PLAIN[c] === 0) {
      if (run < i) out += s.slice(run, i);
      out += ESC[c & 0xff];
      run = i + 1;
    }
  }
  if (run < s.length) out += s.slice(run);
  return out + '"';
}

function utf8Hex(cp: number): string {
  if (cp < 0x800) return HEX2[0xc0 | (cp >> 6)] + HEX2[0x80 | (cp & 63)];
  if (cp < 0x10000) return HEX2[0xe0 | (cp >> 12)] + HEX2[0x80 | ((cp >> 6) & 63)] + HEX2[0x80 | (cp & 63)];
  return HEX2[0xf0 | (cp >> 18)] + HEX2[0x80 | ((cp >> 12) & 63)] + HEX2[0x80 | ((cp >> 6) & 63)] + HEX2[0x80 | (cp & 63)];
}

/** `u"…"` for an already decoded string-utf8. */
export function utf8StringRepr(s: string): string {
  let out = 'u"';
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80 && PLAIN[c] === 1) continue;
    if (run < i) out += s.slice(run, i);
    if (c < 0x80) out += ESC[c];
    else {
      let cp = c;
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
        const lo = s.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo < 0xe000) {
          cp = ((c - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
          i++;
        }
      }
      out += '\\u{' + utf8Hex(cp) + '}';
    }
    run = i + 1;
  }
  if (run < s.length) out += s.slice(run);
  return out + '"';
}

/** Number of Unicode scalar values (what the reference's type signature multiplies by 4). */
export function codePointCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const lo = s.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo < 0xe000) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function sortedTupleRepr(names: string[], parts: string[]): string {
  let order = names.map((n, i) => ({ n, i }));
  order = sortUnique(order, (e) => e.n);
  let s = '(tuple';
  for (const e of order) s += ' (' + e.n + ' ' + parts[e.i] + ')';
  return s + ')';
}

/** Renders the value at the reader as `repr`, advancing past it. */
export function reprAt(r: ByteReader, depth: number): string {
  if (depth >= MAX_CLARITY_DEPTH) throw tooDeepError(r.pos);
  const at = r.pos;
  const id = r.u8('Clarity type id');
  switch (id) {
    case ClarityTypeId.Int: {
      r.need(16, 'int');
      const s = intDecimal(r.buf, r.pos);
      r.pos += 16;
      return s;
    }
    case ClarityTypeId.UInt: {
      r.need(16, 'uint');
      const s = 'u' + uintDecimal(r.buf, r.pos);
      r.pos += 16;
      return s;
    }
    case ClarityTypeId.Buffer:
      return r.hex(r.u32('buffer length'), 'buffer');
    case ClarityTypeId.BoolTrue:
      return 'true';
    case ClarityTypeId.BoolFalse:
      return 'false';
    case ClarityTypeId.PrincipalStandard:
      return "'" + readAddress(r, 'standard principal').address;
    case ClarityTypeId.PrincipalContract: {
      const a = readAddress(r, 'contract principal').address;
      return "'" + a + '.' + readContractName(r, 'contract principal name');
    }
    case ClarityTypeId.ResponseOk:
      return '(ok ' + reprAt(r, depth + 1) + ')';
    case ClarityTypeId.ResponseErr:
      return '(err ' + reprAt(r, depth + 1) + ')';
    case ClarityTypeId.OptionalNone:
      return 'none';
    case ClarityTypeId.OptionalSome:
      return '(some ' + reprAt(r, depth + 1) + ')';
    case ClarityTypeId.List: {
      const n = readCount(r, 'list', 1);
      let s = '(list';
      for (let i = 0; i < n; i++) s += ' ' + reprAt(r, depth + 1);
      return s + ')';
    }
    case ClarityTypeId.Tuple: {
      const n = readCount(r, 'tuple', 2);
      let s = '(tuple';
      let names: string[] | undefined;
      let parts: string[] | undefined;
      let prev = '';
      for (let i = 0; i < n; i++) {
        const name = readTupleName(r);
        const part = reprAt(r, depth + 1);
        if (names === undefined && i > 0 && compareNames(prev, name) >= 0) {
          // out of order or repeated key (never from a node): fall back to sorting
          names = [];
          parts = [];
          const redo = new ByteReader(r.buf, 'tuple', at + 5, r.end);
          for (let j = 0; j < i; j++) {
            names.push(readTupleName(redo));
            parts.push(reprAt(redo, depth + 1));
          }
        }
        if (names !== undefined) {
          names.push(name);
          parts!.push(part);
        } else s += ' (' + name + ' ' + part + ')';
        prev = name;
      }
      return names !== undefined ? sortedTupleRepr(names, parts!) : s + ')';
    }
    case ClarityTypeId.StringAscii: {
      const len = r.u32('string-ascii length');
      r.need(len, 'string-ascii');
      const s = asciiRepr(r.buf, r.pos, r.pos + len);
      r.pos += len;
      return s;
    }
    case ClarityTypeId.StringUtf8: {
      const len = r.u32('string-utf8 length');
      r.need(len, 'string-utf8');
      const s = utf8StringRepr(r.buf.toString('utf8', r.pos, r.pos + len));
      r.pos += len;
      return s;
    }
    default:
      throw unknownTypeError(id, at);
  }
}

/** Renders the value at the reader as the reference's `type_signature`, advancing past it. */
export function typeSignatureAt(r: ByteReader, depth: number): string {
  if (depth >= MAX_CLARITY_DEPTH) throw tooDeepError(r.pos);
  const at = r.pos;
  const id = r.u8('Clarity type id');
  switch (id) {
    case ClarityTypeId.Int:
    case ClarityTypeId.UInt:
      r.need(16, id === 0 ? 'int' : 'uint');
      r.pos += 16;
      return id === 0 ? 'int' : 'uint';
    case ClarityTypeId.Buffer: {
      const n = r.u32('buffer length');
      r.bytes(n, 'buffer');
      return `(buff ${n})`;
    }
    case ClarityTypeId.BoolTrue:
    case ClarityTypeId.BoolFalse:
      return 'bool';
    case ClarityTypeId.PrincipalStandard:
    case ClarityTypeId.PrincipalContract:
      r.pos = at;
      skipClarityValue(r, depth);
      return 'principal';
    case ClarityTypeId.ResponseOk:
      return '(response ' + typeSignatureAt(r, depth + 1) + ' UnknownType)';
    case ClarityTypeId.ResponseErr:
      return '(response UnknownType ' + typeSignatureAt(r, depth + 1) + ')';
    case ClarityTypeId.OptionalNone:
      return '(optional UnknownType)';
    case ClarityTypeId.OptionalSome:
      return '(optional ' + typeSignatureAt(r, depth + 1) + ')';
    case ClarityTypeId.List: {
      const n = readCount(r, 'list', 1);
      if (n === 0) return '(list 0 UnknownType)';
      const first = typeSignatureAt(r, depth + 1);
      for (let i = 1; i < n; i++) skipClarityValue(r, depth + 1);
      return `(list ${n} ${first})`;
    }
    case ClarityTypeId.Tuple: {
      const n = readCount(r, 'tuple', 2);
      const fields: { n: string; t: string }[] = [];
      for (let i = 0; i < n; i++) fields.push({ n: readTupleName(r), t: typeSignatureAt(r, depth + 1) });
      let s = '(tuple';
      for (const f of sortUnique(fields, (e) => e.n)) s += ' (' + f.n + ' ' + f.t + ')';
      return s + ')';
    }
    case ClarityTypeId.StringAscii: {
      const len = r.u32('string-ascii length');
      r.bytes(len, 'string-ascii');
      return `(string-ascii ${len})`;
    }
    case ClarityTypeId.StringUtf8: {
      const len = r.u32('string-utf8 length');
      r.need(len, 'string-utf8');
      const chars = codePointCount(r.buf.toString('utf8', r.pos, r.pos + len));
      r.pos += len;
      return `(string-utf8 ${chars * 4})`;
    }
    default:
      throw unknownTypeError(id, at);
  }
}

/** `repr` of a structured value. */
export function clarityValueRepr(cv: ClarityValue): string {
  switch (cv.type) {
    case 'int':
      return cv.value.toString();
    case 'uint':
      return 'u' + cv.value.toString();
    case 'buffer':
      return '0x' + globalThis.Buffer.from(cv.value.buffer, cv.value.byteOffset, cv.value.byteLength).toString('hex');
    case 'bool':
      return cv.value ? 'true' : 'false';
    case 'principal_standard':
    case 'principal_contract':
      return "'" + cv.value;
    case 'ok':
    case 'err':
    case 'some':
      return '(' + cv.type + ' ' + clarityValueRepr(cv.value) + ')';
    case 'none':
      return 'none';
    case 'list': {
      let s = '(list';
      for (const it of cv.items) s += ' ' + clarityValueRepr(it);
      return s + ')';
    }
    case 'tuple': {
      let s = '(tuple';
      for (const e of cv.entries) s += ' (' + e.name + ' ' + clarityValueRepr(e.value) + ')';
      return s + ')';
    }
    case 'string_ascii':
      return asciiStringRepr(cv.value);
    case 'string_utf8':
      return utf8StringRepr(cv.value);
    default:
      throw new DecodeError(`not a Clarity value: ${JSON.stringify((cv as { type?: unknown }).type)}`);
  }
}

/** `type_signature` of a structured value. */
export function clarityValueTypeSignature(cv: ClarityValue): string {
  switch (cv.type) {
    case 'int':
      return 'int';
    case 'uint':
      return 'uint';
    case 'buffer':
      return `(buff ${cv.value.length})`;
    case 'bool':
      return 'bool';
    case 'principal_standard':
    case 'principal_contract':
      return 'principal';
    case 'ok':
      return '(response ' + clarityValueTypeSignature(cv.value) + ' UnknownType)';
    case 'err':
      return '(response UnknownType ' + clarityValueTypeSignature(cv.value) + ')';
    case 'some':
      return '(optional ' + clarityValueTypeSignature(cv.value) + ')';
    case 'none':
      return '(optional UnknownType)';
    case 'list':
      return cv.items.length === 0 ? '(list 0 UnknownType)' : `(list ${cv.items.length} ${clarityValueTypeSignature(cv.items[0])})`;
    case 'tuple': {
      let s = '(tuple';
      for (const e of cv.entries) s += ' (' + e.name + ' ' + clarityValueTypeSignature(e.value) + ')';
      return s + ')';
    }
    case 'string_ascii':
      return `(string-ascii ${cv.value.length})`;
    case 'string_utf8':
      return `(string-utf8 ${codePointCount(cv.value) * 4})`;
    default:
      throw new DecodeError(`not a Clarity value: ${JSON.stringify((cv as { type?: unknown }).type)}`);
  }
}
