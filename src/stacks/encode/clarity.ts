// Clarity values and their consensus serialization (SIP-005 §13 in EVENT-OBSERVER.md), plus the
// byte writer the transaction encoder shares.

/** A growable big-endian byte writer. */
export class Writer {
  private buf: Buffer;
  pos = 0;

  constructor(size = 1024) {
    this.buf = Buffer.allocUnsafe(size);
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  u8(v: number): this {
    this.room(1);
    this.buf[this.pos++] = v;
    return this;
  }

  u16(v: number): this {
    this.room(2);
    this.buf.writeUInt16BE(v, this.pos);
    this.pos += 2;
    return this;
  }

  u32(v: number): this {
    this.room(4);
    this.buf.writeUInt32BE(v >>> 0, this.pos);
    this.pos += 4;
    return this;
  }

  u64(v: number | bigint): this {
    this.room(8);
    this.buf.writeBigUInt64BE(BigInt(v), this.pos);
    this.pos += 8;
    return this;
  }

  /** 16-byte two's complement (int) or unsigned (uint) big-endian integer. */
  i128(v: bigint): this {
    this.room(16);
    const x = BigInt.asUintN(128, v);
    this.buf.writeBigUInt64BE(x >> 64n, this.pos);
    this.buf.writeBigUInt64BE(x & 0xffffffffffffffffn, this.pos + 8);
    this.pos += 16;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  /** u8 length + ASCII (contract, function, asset and tuple key names). */
  name(s: string): this {
    if (s.length > 128) throw new Error(`name too long: ${s}`);
    this.u8(s.length);
    this.room(s.length);
    this.pos += this.buf.write(s, this.pos, 'latin1');
    return this;
  }

  /** u32 length + UTF-8 bytes. */
  text(s: string): this {
    const n = Buffer.byteLength(s, 'utf8');
    this.u32(n);
    this.room(n);
    this.pos += this.buf.write(s, this.pos, 'utf8');
    return this;
  }

  /** A copy of what was written. */
  done(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}

/** A Stacks address: c32 version byte + hash160. */
export interface Address {
  version: number;
  hash160: Buffer;
}

export type ClarityValue =
  | { type: 'int'; value: bigint }
  | { type: 'uint'; value: bigint }
  | { type: 'buffer'; value: Uint8Array }
  | { type: 'true' }
  | { type: 'false' }
  | { type: 'principal'; address: Address; contractName?: string }
  | { type: 'ok'; value: ClarityValue }
  | { type: 'err'; value: ClarityValue }
  | { type: 'none' }
  | { type: 'some'; value: ClarityValue }
  | { type: 'list'; items: ClarityValue[] }
  | { type: 'tuple'; entries: Record<string, ClarityValue> }
  | { type: 'ascii'; value: string }
  | { type: 'utf8'; value: string };

export const Cv = {
  int: (v: number | bigint): ClarityValue => ({ type: 'int', value: BigInt(v) }),
  uint: (v: number | bigint): ClarityValue => ({ type: 'uint', value: BigInt(v) }),
  buffer: (v: Uint8Array): ClarityValue => ({ type: 'buffer', value: v }),
  bool: (v: boolean): ClarityValue => (v ? { type: 'true' } : { type: 'false' }),
  principal: (address: Address, contractName?: string): ClarityValue => ({ type: 'principal', address, contractName }),
  ok: (value: ClarityValue): ClarityValue => ({ type: 'ok', value }),
  err: (value: ClarityValue): ClarityValue => ({ type: 'err', value }),
  none: (): ClarityValue => ({ type: 'none' }),
  some: (value: ClarityValue): ClarityValue => ({ type: 'some', value }),
  list: (items: ClarityValue[]): ClarityValue => ({ type: 'list', items }),
  tuple: (entries: Record<string, ClarityValue>): ClarityValue => ({ type: 'tuple', entries }),
  ascii: (value: string): ClarityValue => ({ type: 'ascii', value }),
  utf8: (value: string): ClarityValue => ({ type: 'utf8', value }),
};

export function writeAddress(w: Writer, a: Address): void {
  w.u8(a.version).bytes(a.hash160);
}

export function writeClarity(w: Writer, v: ClarityValue): void {
  switch (v.type) {
    case 'int':
      w.u8(0x00).i128(v.value);
      return;
    case 'uint':
      w.u8(0x01).i128(v.value);
      return;
    case 'buffer':
      w.u8(0x02).u32(v.value.length).bytes(v.value);
      return;
    case 'true':
      w.u8(0x03);
      return;
    case 'false':
      w.u8(0x04);
      return;
    case 'principal':
      w.u8(v.contractName === undefined ? 0x05 : 0x06);
      writeAddress(w, v.address);
      if (v.contractName !== undefined) w.name(v.contractName);
      return;
    case 'ok':
      w.u8(0x07);
      writeClarity(w, v.value);
      return;
    case 'err':
      w.u8(0x08);
      writeClarity(w, v.value);
      return;
    case 'none':
      w.u8(0x09);
      return;
    case 'some':
      w.u8(0x0a);
      writeClarity(w, v.value);
      return;
    case 'list':
      w.u8(0x0b).u32(v.items.length);
      for (const item of v.items) writeClarity(w, item);
      return;
    case 'tuple': {
      // Keys in ascending byte order, as stacks-core's BTreeMap serializes them.
      const keys = Object.keys(v.entries).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      w.u8(0x0c).u32(keys.length);
      for (const k of keys) {
        w.name(k);
        writeClarity(w, v.entries[k]);
      }
      return;
    }
    case 'ascii':
      w.u8(0x0d).u32(v.value.length);
      w.bytes(Buffer.from(v.value, 'latin1'));
      return;
    case 'utf8':
      w.u8(0x0e).text(v.value);
      return;
  }
}

const scratch = new Writer(4096);

export function serializeClarity(v: ClarityValue): Buffer {
  scratch.pos = 0;
  writeClarity(scratch, v);
  return scratch.done();
}

/** 0x-prefixed hex of the serialized value (`raw_result`, `raw_value`). */
export function clarityHex(v: ClarityValue): string {
  return '0x' + serializeClarity(v).toString('hex');
}

// Frequent results, precomputed.
export const OK_TRUE_HEX = '0x0703';
export const ERR_NONE_HEX = '0x0809';
export const okUintHex = (n: number | bigint): string => clarityHex(Cv.ok(Cv.uint(n)));
export const errUintHex = (n: number | bigint): string => clarityHex(Cv.err(Cv.uint(n)));
