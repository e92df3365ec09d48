// A tx document read in place for a list item: its flags, placement and contract call, and where its
// body's UTF-8 bytes lie, without decoding the body to a string (the answer copies those bytes as
// they are). Reads codec.ts's MessagePack tuple (the document's hot part) directly.

export interface TxDocListFields {
  flags: number;
  /** The body's bytes: `bytes.subarray(bodyStart, bodyEnd)` (JSON members, no braces). */
  bodyStart: number;
  bodyEnd: number;
  /** The contract call's bytes (a MessagePack map), or callStart === callEnd when it has none. */
  callStart: number;
  callEnd: number;
  /** '' for anchored txs. */
  microblock_hash: string;
  /** With OWN_PLACEMENT only. */
  index_block_hash?: string;
  block_height?: number;
}

/** Reads MessagePack values in place. */
export class MsgpackReader {
  pos = 0;
  constructor(
    readonly b: Uint8Array,
    readonly end: number,
  ) {}

  private need(n: number): void {
    if (this.pos + n > this.end) throw new RangeError('a tx document ends inside a value');
  }

  private be(n: number): number {
    this.need(n);
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + this.b[this.pos++];
    return v;
  }

  /** The element count of an array header. */
  arrayLength(): number {
    return this.count(0x90, 0xdc, 'array');
  }

  /** The entry count of a map header. */
  mapLength(): number {
    return this.count(0x80, 0xde, 'map');
  }

  /** A container header's count: its fix form (`fix` + up to 15), then its 16- and 32-bit forms. */
  private count(fix: number, wide16: number, kind: string): number {
    this.need(1);
    const t = this.b[this.pos++];
    if (t >= fix && t <= fix + 15) return t - fix;
    if (t === wide16) return this.be(2);
    if (t === wide16 + 1) return this.be(4);
    throw new TypeError(`a tx document holds no ${kind} here (0x${t.toString(16)})`);
  }

  /** An integer as msgpackr writes one (any width, either sign; a float only past 2^53). */
  int(): number {
    this.need(1);
    const t = this.b[this.pos++];
    if (t <= 0x7f) return t;
    if (t >= 0xe0) return t - 0x100;
    switch (t) {
      case 0xcc: return this.be(1);
      case 0xcd: return this.be(2);
      case 0xce: return this.be(4);
      case 0xcf: return this.be(8);
      case 0xd0: { const v = this.be(1); return v >= 0x80 ? v - 0x100 : v; }
      case 0xd1: { const v = this.be(2); return v >= 0x8000 ? v - 0x10000 : v; }
      case 0xd2: { const v = this.be(4); return v >= 0x8000_0000 ? v - 0x1_0000_0000 : v; }
      case 0xcb: { this.need(8); const v = new DataView(this.b.buffer, this.b.byteOffset + this.pos, 8).getFloat64(0); this.pos += 8; return v; }
      case 0xca: { this.need(4); const v = new DataView(this.b.buffer, this.b.byteOffset + this.pos, 4).getFloat32(0); this.pos += 4; return v; }
      default: throw new TypeError(`a tx document's number has type 0x${t.toString(16)}`);
    }
  }

  /** Where the last string read by `str` ends. */
  strEnd = 0;

  /** A string's first byte (its end in `strEnd`), past it: no pair made per string. */
  str(): number {
    this.need(1);
    const t = this.b[this.pos++];
    let n: number;
    if (t >= 0xa0 && t <= 0xbf) n = t - 0xa0;
    else if (t === 0xd9) n = this.be(1);
    else if (t === 0xda) n = this.be(2);
    else if (t === 0xdb) n = this.be(4);
    else throw new TypeError(`a tx document's string has type 0x${t.toString(16)}`);
    this.need(n);
    const start = this.pos;
    this.pos += n;
    this.strEnd = this.pos;
    return start;
  }

  /** A string's byte range, past it. */
  strRange(): [number, number] {
    const start = this.str();
    return [start, this.strEnd];
  }

  /** A string of ASCII (hashes), decoded. */
  ascii(): string {
    const [s, e] = this.strRange();
    let out = '';
    for (let i = s; i < e; i++) out += String.fromCharCode(this.b[i]);
    return out;
  }

  /** Steps over any one value. */
  skip(): void {
    this.need(1);
    const t = this.b[this.pos++];
    if (t <= 0x7f || t >= 0xe0 || t === 0xc0 || t === 0xc2 || t === 0xc3) return;
    if (t >= 0xa0 && t <= 0xbf) return this.advance(t - 0xa0);
    if (t >= 0x90 && t <= 0x9f) return this.skipMany(t - 0x90);
    if (t >= 0x80 && t <= 0x8f) return this.skipMany(2 * (t - 0x80));
    switch (t) {
      case 0xcc: case 0xd0: return this.advance(1);
      case 0xcd: case 0xd1: return this.advance(2);
      case 0xce: case 0xd2: case 0xca: return this.advance(4);
      case 0xcf: case 0xd3: case 0xcb: return this.advance(8);
      case 0xd9: case 0xc4: return this.advance(this.be(1));
      case 0xda: case 0xc5: return this.advance(this.be(2));
      case 0xdb: case 0xc6: return this.advance(this.be(4));
      case 0xdc: return this.skipMany(this.be(2));
      case 0xdd: return this.skipMany(this.be(4));
      case 0xde: return this.skipMany(2 * this.be(2));
      case 0xdf: return this.skipMany(2 * this.be(4));
      case 0xd4: return this.advance(2);
      case 0xd5: return this.advance(3);
      case 0xd6: return this.advance(5);
      case 0xd7: return this.advance(9);
      case 0xd8: return this.advance(17);
      case 0xc7: return this.advance(this.be(1) + 1);
      case 0xc8: return this.advance(this.be(2) + 1);
      case 0xc9: return this.advance(this.be(4) + 1);
      default: throw new TypeError(`a tx document holds a value of type 0x${t.toString(16)}`);
    }
  }

  private advance(n: number): void {
    this.need(n);
    this.pos += n;
  }

  private skipMany(n: number): void {
    for (let i = 0; i < n; i++) this.skip();
  }
}

/** The list fields of a tx document as lmdb returns it (decompressed; `length`: the value's size,
 *  lmdb's reused buffer being longer). The bytes stay lmdb's: copy the body before the next read. */
export function readTxDocListFields(bytes: Uint8Array, length = bytes.length): TxDocListFields {
  const r = new MsgpackReader(bytes, length);
  const n = r.arrayLength();
  const flags = r.int();
  const [bodyStart, bodyEnd] = r.strRange();
  const callStart = r.pos;
  r.skip();
  const callEnd = bytes[callStart] === 0xc0 ? callStart : r.pos;
  r.skip(); // event_count
  r.skip(); // sender_address
  r.skip(); // fee_rate
  const microblock_hash = r.ascii();
  r.skip(); // microblock_sequence
  r.skip(); // tx_index
  const out: TxDocListFields = { flags, bodyStart, bodyEnd, callStart, callEnd, microblock_hash };
  if (n >= 11) {
    out.index_block_hash = r.ascii();
    out.block_height = r.int();
  }
  return out;
}
