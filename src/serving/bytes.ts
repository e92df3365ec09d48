// Compact binary values and keys of the serving store: unsigned varints (LEB128, up to 2^53),
// signed ones (zigzag), big integers as varints, 32-byte hashes kept as bytes and rendered as hex
// only when answered, and big-endian fixed-width integers for keys that must sort as numbers.

/** Appends to a growing buffer; `bytes()` copies out what was written. */
export class ByteWriter {
  private buf: Uint8Array;
  length = 0;

  constructor(size = 64) {
    this.buf = new Uint8Array(size);
  }

  /** Starts over, keeping the buffer (a scratch writer reused for many small values). */
  reset(): this {
    this.length = 0;
    return this;
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  u8(v: number): this {
    this.room(1);
    this.buf[this.length++] = v;
    return this;
  }

  /** An unsigned integer below 2^53. */
  uint(v: number): this {
    this.room(8);
    while (v >= 128) {
      this.buf[this.length++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.buf[this.length++] = v;
    return this;
  }

  /** A safe integer of either sign (zigzag). */
  int(v: number): this {
    return this.uint(v >= 0 ? v * 2 : -v * 2 - 1);
  }

  /** A non-negative bigint of any size. */
  big(v: bigint): this {
    if (v < 0n) throw new RangeError('ByteWriter.big takes a non-negative value');
    if (v < 2n ** 53n) return this.uint(Number(v));
    for (; v >= 128n; v >>= 7n) this.u8(Number(v & 127n) | 128);
    return this.u8(Number(v));
  }

  /** A bigint of either sign (zigzag). */
  signedBig(v: bigint): this {
    return this.big(v < 0n ? -v * 2n - 1n : v * 2n);
  }

  raw(bytes: Uint8Array): this {
    this.room(bytes.length);
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
    return this;
  }

  /** Length-prefixed bytes. */
  blob(bytes: Uint8Array): this {
    return this.uint(bytes.length).raw(bytes);
  }

  /** A length-prefixed UTF-8 string. */
  str(s: string): this {
    return this.blob(Buffer.from(s, 'utf8'));
  }

  /** A 0x-prefixed 32-byte hash as its bytes; anything else (empty, '0x', another length) as text. */
  hash(h: string): this {
    return HASH.test(h) ? this.u8(1).raw(hexBytes(h)) : this.u8(0).str(h);
  }

  bytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }

  /** What was written, as a view: valid until the next write. */
  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** Reads what ByteWriter wrote. `end`: where the value ends (lmdb's reused buffers are longer). */
export class ByteReader {
  constructor(
    readonly buf: Uint8Array,
    public pos = 0,
    readonly end = buf.length,
  ) {}

  get done(): boolean {
    return this.pos >= this.end;
  }

  u8(): number {
    if (this.pos >= this.end) throw new RangeError('a byte past the end of its value');
    return this.buf[this.pos++];
  }

  uint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.end) throw new RangeError('a varint runs past the end of its value');
      const b = this.buf[this.pos++];
      v += (b & 127) * scale;
      if (b < 128) return v;
      scale *= 128;
    }
  }

  /** Steps over a varint (uint or big) without reading it. */
  skipVarint(): this {
    while (this.u8() >= 128);
    return this;
  }

  int(): number {
    const z = this.uint();
    return z % 2 ? -(z + 1) / 2 : z / 2;
  }

  big(): bigint {
    const start = this.pos;
    let n = 0;
    while (this.buf[this.pos + n] >= 128) n++;
    if (n < 7) return BigInt(this.uint());
    let v = 0n;
    for (let k = 0; k <= n; k++) v |= BigInt(this.buf[start + k] & 127) << BigInt(7 * k);
    this.pos = start + n + 1;
    return v;
  }

  signedBig(): bigint {
    const z = this.big();
    return z & 1n ? -(z + 1n) / 2n : z / 2n;
  }

  raw(n: number): Uint8Array {
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  blob(): Uint8Array {
    return this.raw(this.uint());
  }

  str(): string {
    const n = this.uint();
    const s = Buffer.prototype.utf8Slice.call(this.buf, this.pos, this.pos + n) as string;
    this.pos += n;
    return s;
  }

  hash(): string {
    return this.u8() === 1 ? this.hex(32) : this.str();
  }

  /** `n` bytes as 0x-prefixed hex. */
  hex(n: number): string {
    const s = `0x${Buffer.prototype.hexSlice.call(this.buf, this.pos, this.pos + n) as string}`;
    this.pos += n;
    return s;
  }
}

const HASH = /^0x[0-9a-f]{64}$/;

/** A 0x-prefixed (or bare) hex string as bytes. */
export const hexBytes = (hex: string): Buffer => Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex');

/** Bytes as 0x-prefixed hex. */
export const bytesHex = (b: Uint8Array, start = 0, end = b.length): string => `0x${Buffer.prototype.hexSlice.call(b, start, end) as string}`;

/** Big-endian u32s side by side: keys that sort as the numbers do. */
export function u32Key(...parts: number[]): Buffer {
  const out = Buffer.allocUnsafe(parts.length * 4);
  parts.forEach((v, i) => out.writeUInt32BE(v, i * 4));
  return out;
}

/** A key of `prefix` followed by big-endian u32s. */
export function keyWith(prefix: Uint8Array, ...parts: number[]): Buffer {
  const out = Buffer.allocUnsafe(prefix.length + parts.length * 4);
  out.set(prefix, 0);
  parts.forEach((v, i) => out.writeUInt32BE(v, prefix.length + i * 4));
  return out;
}

/** The big-endian u32 at `at` (lmdb's reused buffers are not Buffers: no readUInt32BE). */
export const readU32 = (b: Uint8Array, at = 0): number => b[at] * 2 ** 24 + (b[at + 1] << 16) + (b[at + 2] << 8) + b[at + 3];
