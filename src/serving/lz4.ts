// LZ4 block compression with a preset dictionary, written for the serving store's documents and
// framed as the lmdb package frames its own compressed values (a 254 marker byte and the 24-bit
// uncompressed length, then one LZ4 block whose matches may reach back into the dictionary). A
// value compressed here is stored through a database handle without compression and read through
// one opened with the same dictionary, so lmdb decompresses it natively on read (~1 µs a document).
//
// Why here and not in lmdb: lmdb compresses each value on the libuv pool, one queued job per value,
// and loads the dictionary again for each (measured: 16-18 µs of CPU per 1 KB document). Here the
// decode workers compress what they render, and the dictionary's hash table is built once per thread.
//
// liblz4 does it when the optional addon `lz4-dictionary` loads (native/lz4-dictionary: the
// dictionary loaded into its stream state once, the state copied per value): 2.9-3.2 µs a document
// against 13-14 for the JavaScript compressor below, and 0.5% fewer bytes (40,000 documents of the
// 100k-tx chain). The JavaScript one stays for a machine without a compiler or liblz4.
//
// The block format (lz4.org, "LZ4 Block Format Description"): sequences of a token (literal length
// and match length - 4, four bits each, 15 meaning "more bytes follow"), the literals, a 2-byte
// little-endian offset and the length's extra bytes; the last sequence has literals only, the last
// 5 bytes are literals and the last match starts at least 12 bytes before the end.

import { createRequire } from 'node:module';

const MIN_MATCH = 4;
const LAST_LITERALS = 5;
const MF_LIMIT = 12;
const MAX_OFFSET = 65_535;
const INPUT_HASH_LOG = 12;
const DICT_HASH_LOG = 15;
/** lmdb's marker for a value it stores compressed (and its header's length). */
export const COMPRESSED_MARKER = 254;
const HEADER = 4;
/** Values of 2^24 bytes and more would need lmdb's long header: they are stored plain. */
const MAX_INPUT = 2 ** 24 - 1;

interface NativeLz4 {
  loadDictionary(bytes: Uint8Array): object;
  compressInto(dictionary: object, src: Uint8Array, dst: Uint8Array, offset: number): number;
}

function loadNative(): NativeLz4 | null {
  if (process.env.STACKS_API_LZ4_JS === '1') return null;
  try {
    return createRequire(import.meta.url)('lz4-dictionary') as NativeLz4;
  } catch {
    return null;
  }
}
const native = loadNative();

/** Whether values are compressed by liblz4 (the addon loaded) rather than in JavaScript. */
export const nativeLz4 = native !== null;

const read32 = (b: Uint8Array, p: number): number => b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24);

/** A preset dictionary with its positions hashed (built once, read by every compression). */
export class Lz4Dictionary {
  /** lmdb reads a dictionary's length rounded down to 8 bytes: it is cut to that here too. */
  readonly bytes: Uint8Array;
  readonly table: Int32Array;

  /** The dictionary in liblz4's stream state (the addon), built on first use. */
  private loaded: object | undefined;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes.subarray(0, bytes.length & ~7);
    if (this.bytes.length > MAX_OFFSET) throw new Error('an LZ4 dictionary reaches back at most 65,535 bytes');
    this.table = new Int32Array(1 << DICT_HASH_LOG).fill(-1);
    for (let p = 0; p + MIN_MATCH <= this.bytes.length; p++) this.table[Math.imul(read32(this.bytes, p), 2654435761) >>> (32 - DICT_HASH_LOG)] = p;
  }

  nativeHandle(lib: NativeLz4): object {
    return (this.loaded ??= lib.loadDictionary(this.bytes));
  }
}

/** Reused between calls on one thread: the input's hash table and the output buffer. An entry
 *  holds a position plus `base`; `base` moves past every position of the last input, so entries of
 *  earlier inputs read as empty without clearing the table. */
const inputTable = new Int32Array(1 << INPUT_HASH_LOG);
let base = 0;
let out = new Uint8Array(64 * 1024);

function ensure(size: number): void {
  if (out.length < size) out = new Uint8Array(Math.max(size, out.length * 2));
}

function writeLength(o: number, n: number): number {
  for (; n >= 255; n -= 255) out[o++] = 255;
  out[o++] = n;
  return o;
}

function copyLiterals(o: number, src: Uint8Array, from: number, count: number): number {
  if (count > 32) out.set(src.subarray(from, from + count), o);
  else for (let k = 0; k < count; k++) out[o + k] = src[from + k];
  return o + count;
}

function emit(o: number, src: Uint8Array, anchor: number, literals: number, offset: number, matchLength: number): number {
  const token = o++;
  const ml = matchLength - MIN_MATCH;
  out[token] = ((literals >= 15 ? 15 : literals) << 4) | (ml >= 15 ? 15 : ml);
  if (literals >= 15) o = writeLength(o, literals - 15);
  o = copyLiterals(o, src, anchor, literals);
  out[o++] = offset & 255;
  out[o++] = offset >>> 8;
  if (ml >= 15) o = writeLength(o, ml - 15);
  return o;
}

function emitLast(o: number, src: Uint8Array, anchor: number): number {
  const literals = src.length - anchor;
  out[o++] = (literals >= 15 ? 15 : literals) << 4;
  if (literals >= 15) o = writeLength(o, literals - 15);
  return copyLiterals(o, src, anchor, literals);
}

/**
 * `src` compressed against `dict`, framed for lmdb; `src` itself (not copied) when compressing
 * does not make it smaller. `src` must not start with a byte of 250 or more (lmdb's markers).
 */
export function compressValue(src: Uint8Array, dict: Lz4Dictionary): Uint8Array {
  if (!native) return compressValueJs(src, dict);
  const n = src.length;
  if (n > MAX_INPUT || n < MF_LIMIT + 1) return src;
  ensure(HEADER + n + Math.ceil(n / 255) + 16);
  const length = native.compressInto(dict.nativeHandle(native), src, out, HEADER);
  return length === 0 || HEADER + length >= n ? src : framed(n, HEADER + length);
}

/** lmdb's header before the block in `out`, and the framed value copied out. */
function framed(n: number, length: number): Uint8Array {
  out[0] = COMPRESSED_MARKER;
  out[1] = (n >>> 16) & 255;
  out[2] = (n >>> 8) & 255;
  out[3] = n & 255;
  return out.slice(0, length);
}

/** compressValue without the addon (tests compare the two). */
export function compressValueJs(src: Uint8Array, dict: Lz4Dictionary): Uint8Array {
  const n = src.length;
  if (n > MAX_INPUT || n < MF_LIMIT + 1) return src;
  ensure(HEADER + n + Math.ceil(n / 255) + 16);
  if (base > 2 ** 30) {
    inputTable.fill(0);
    base = 0;
  }
  const b0 = base + 1;
  base = b0 + n;
  const d = dict.bytes;
  const dLen = d.length;
  const dTable = dict.table;
  let o = HEADER;
  let anchor = 0;
  let p = 0;
  const matchLimit = n - LAST_LITERALS;
  const searchEnd = n - MF_LIMIT;
  let misses = 0;
  while (p <= searchEnd) {
    const seq = src[p] | (src[p + 1] << 8) | (src[p + 2] << 16) | (src[p + 3] << 24);
    const h = Math.imul(seq, 2654435761) >>> (32 - DICT_HASH_LOG);
    const hi = h >>> (DICT_HASH_LOG - INPUT_HASH_LOG);
    const c = inputTable[hi] - b0;
    inputTable[hi] = p + b0;
    let length = 0;
    let offset = 0;
    if (c >= 0 && p - c <= MAX_OFFSET && src[c] === src[p] && src[c + 1] === src[p + 1] && src[c + 2] === src[p + 2] && src[c + 3] === src[p + 3]) {
      length = MIN_MATCH;
      while (p + length < matchLimit && src[c + length] === src[p + length]) length++;
      offset = p - c;
    } else {
      const dc = dTable[h];
      const back = p + dLen - dc;
      if (dc >= 0 && back <= MAX_OFFSET && d[dc] === src[p] && d[dc + 1] === src[p + 1] && d[dc + 2] === src[p + 2] && d[dc + 3] === src[p + 3]) {
        length = MIN_MATCH;
        // A match found in the dictionary stops at its end (the decoder could run on into the input).
        while (p + length < matchLimit && dc + length < dLen && d[dc + length] === src[p + length]) length++;
        offset = back;
      }
    }
    if (length === 0) {
      // LZ4's acceleration: after many misses in a row, step further.
      p += 1 + (misses++ >> 6);
      continue;
    }
    misses = 0;
    // Extend the match backwards over literals that also match.
    let from = p - offset;
    while (p > anchor && from > -dLen && (from > 0 ? src[from - 1] : d[dLen + from - 1]) === src[p - 1]) {
      p--;
      from--;
      length++;
    }
    o = emit(o, src, anchor, p - anchor, offset, length);
    p += length;
    anchor = p;
    // Positions inside the match are not hashed, except the one before its end (as LZ4 does).
    if (p <= searchEnd) inputTable[Math.imul(read32(src, p - 2), 2654435761) >>> (32 - INPUT_HASH_LOG)] = p - 2 + b0;
  }
  o = emitLast(o, src, anchor);
  return o >= n ? src : framed(n, o);
}

/** A stored value as it was before compressValue (read outside lmdb: tests, the processor's rare re-pack). */
export function decompressValue(value: Uint8Array, dict: Lz4Dictionary): Uint8Array {
  if (value.length === 0 || value[0] !== COMPRESSED_MARKER) return value;
  const n = (value[1] << 16) | (value[2] << 8) | value[3];
  const d = dict.bytes;
  const dst = new Uint8Array(n);
  let i = HEADER;
  let o = 0;
  for (;;) {
    const token = value[i++];
    let literals = token >>> 4;
    if (literals === 15) for (let b = 255; b === 255; literals += b) b = value[i++];
    dst.set(value.subarray(i, i + literals), o);
    i += literals;
    o += literals;
    if (i >= value.length) break;
    const offset = value[i] | (value[i + 1] << 8);
    i += 2;
    let length = token & 15;
    if (length === 15) for (let b = 255; b === 255; length += b) b = value[i++];
    length += MIN_MATCH;
    for (let k = 0; k < length; k++, o++) {
      const from = o - offset;
      dst[o] = from >= 0 ? dst[from] : d[d.length + from];
    }
  }
  if (o !== n) throw new Error(`corrupt LZ4 value: ${o} bytes decoded, ${n} expected`);
  return dst;
}
