// Bounds-checked big-endian reader over node payload bytes, plus strict hex <-> bytes helpers.
// Every read names the field it reads, so a truncated or malformed blob fails with a message that
// says where and what (never garbage, never a hang): all loops in the decoders are bounded by
// counts that are checked against the bytes actually left.
import { Buffer } from 'node:buffer';

/** Thrown for any input that is not a well-formed encoding (truncated, unknown tag, bad hex ...). */
export class DecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecodeError';
  }
}

const HEX_CHAR = /[^0-9a-fA-F]/;

/** The bytes of `hex` (an optional 0x/0X prefix is allowed). Odd length or a non-hex digit throws. */
export function hexToBytes(hex: string, what = 'hex input'): Buffer {
  const start = hex.length >= 2 && hex.charCodeAt(0) === 48 && (hex.charCodeAt(1) | 32) === 120 ? 2 : 0;
  const digits = hex.length - start;
  if (digits % 2 !== 0) throw new DecodeError(`odd-length hex in ${what}: ${digits} hex digits`);
  const body = start ? hex.slice(start) : hex;
  const out = Buffer.from(body, 'hex');
  // Buffer.from stops silently at the first bad digit pair; a short result means bad input.
  if (out.length * 2 !== digits) {
    const at = body.search(HEX_CHAR);
    throw new DecodeError(`invalid hex digit ${JSON.stringify(body[at] ?? '?')} at position ${at + start} in ${what}`);
  }
  return out;
}

/** A Buffer view of `input` without copying (hex strings are decoded). */
export function toBuffer(input: string | Uint8Array, what = 'input'): Buffer {
  if (typeof input === 'string') return hexToBytes(input, what);
  if (Buffer.isBuffer(input)) return input;
  return Buffer.from(input.buffer, input.byteOffset, input.byteLength);
}

/** Lowercase hex with a 0x prefix. */
export function bytesToHex(bytes: Uint8Array): string {
  return '0x' + toBuffer(bytes).toString('hex');
}

export class ByteReader {
  readonly buf: Buffer;
  /** Offset of the next byte to read. */
  pos: number;
  readonly end: number;

  constructor(input: string | Uint8Array, what = 'input', start = 0, end?: number) {
    this.buf = toBuffer(input, what);
    this.pos = start;
    this.end = end ?? this.buf.length;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  /** Throws unless `n` more bytes are available. */
  need(n: number, field: string): void {
    if (this.pos + n > this.end) {
      throw new DecodeError(
        `truncated: needed ${n} byte${n === 1 ? '' : 's'} at offset ${this.pos} reading ${field}, ` +
          `but only ${this.end - this.pos} left (input is ${this.end} bytes)`,
      );
    }
  }

  u8(field: string): number {
    if (this.pos >= this.end) this.need(1, field);
    return this.buf[this.pos++];
  }

  u16(field: string): number {
    this.need(2, field);
    const v = this.buf.readUInt16BE(this.pos);
    this.pos += 2;
    return v;
  }

  u32(field: string): number {
    this.need(4, field);
    const v = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  u64(field: string): bigint {
    this.need(8, field);
    const v = this.buf.readBigUInt64BE(this.pos);
    this.pos += 8;
    return v;
  }

  /** A view (no copy) of the next `n` bytes. */
  bytes(n: number, field: string): Buffer {
    this.need(n, field);
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  /** The next `n` bytes as 0x-prefixed hex. */
  hex(n: number, field: string): string {
    this.need(n, field);
    const v = '0x' + this.buf.toString('hex', this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  /** The next `n` bytes as hex without prefix. */
  rawHex(n: number, field: string): string {
    this.need(n, field);
    const v = this.buf.toString('hex', this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  /** A u8-length-prefixed name (contract, function, asset, tuple key). */
  name(field: string, minLength = 0): string {
    const len = this.u8(`${field} length`);
    if (len < minLength) throw new DecodeError(`bad ${field} length ${len} at offset ${this.pos - 1}`);
    this.need(len, field);
    const v = this.buf.toString('utf8', this.pos, this.pos + len);
    this.pos += len;
    return v;
  }

  /** Hex (0x-prefixed) of bytes [from, pos). */
  hexSince(from: number): string {
    return '0x' + this.buf.toString('hex', from, this.pos);
  }

  /** Throws if anything is left after a complete value. */
  expectEnd(what: string): void {
    if (this.pos !== this.end) {
      throw new DecodeError(`${this.end - this.pos} trailing byte${this.end - this.pos === 1 ? '' : 's'} after ${what} at offset ${this.pos}`);
    }
  }
}
