// The chunks of a principal's list (principal-list.ts), as stored: [count][each entry's end, u16
// big-endian][the entries]. While a batch changes one, its entries are kept end to end in one
// growing buffer (ChunkEntries): kept as a Uint8Array per entry, a batch's ~17k entries (a
// 100k-tx import's ~7k-tx batch) outlived the young generation and were copied into the old one.

/** Where a chunk's entry `i` ends, counted from the end of its header. */
const endOf = (chunk: Uint8Array, i: number): number => (chunk[1 + i * 2] << 8) | chunk[2 + i * 2];

/** Where entry `i` of a stored chunk is: [start, end). */
export function entryRange(chunk: Uint8Array, i: number): [number, number] {
  const head = 1 + chunk[0] * 2;
  return [head + (i === 0 ? 0 : endOf(chunk, i - 1)), head + endOf(chunk, i)];
}

export class ChunkEntries {
  private buf: Uint8Array;
  /** Where each entry ends in `buf`. */
  private readonly ends: number[] = [];

  /** A stored chunk's entries (copied: it may be lmdb's reused buffer), or none. */
  constructor(stored?: Uint8Array) {
    if (!stored) {
      this.buf = new Uint8Array(1024);
      return;
    }
    const count = stored[0];
    const head = 1 + count * 2;
    this.buf = new Uint8Array(Math.max(1024, 2 * (stored.length - head)));
    this.buf.set(stored.subarray(head));
    for (let i = 0; i < count; i++) this.ends.push(endOf(stored, i));
  }

  get length(): number {
    return this.ends.length;
  }

  private get used(): number {
    return this.ends.length === 0 ? 0 : this.ends[this.ends.length - 1];
  }

  /** Entry `i`'s bytes: a view, valid until the next change. */
  at(i: number): Uint8Array | undefined {
    if (i >= this.ends.length) return undefined;
    return this.buf.subarray(i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }

  /** Sets entry `i` to a copy of `bytes`: the next one is appended, an existing one replaced (the
   *  entries after it move; only a reorg's removal does that). */
  set(i: number, bytes: Uint8Array): void {
    if (i > this.ends.length) throw new Error(`chunk entry ${i} set past the ${this.ends.length} there are`);
    const used = this.used;
    if (i === this.ends.length) {
      this.ensure(used + bytes.length);
      this.buf.set(bytes, used);
      this.ends.push(used + bytes.length);
      return;
    }
    const start = i === 0 ? 0 : this.ends[i - 1];
    const end = this.ends[i];
    const tail = this.buf.slice(end, used);
    const delta = bytes.length - (end - start);
    this.ensure(used + delta);
    this.buf.set(bytes, start);
    this.buf.set(tail, start + bytes.length);
    for (let k = i; k < this.ends.length; k++) this.ends[k] += delta;
  }

  private ensure(size: number): void {
    if (size <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(size, this.buf.length * 2));
    grown.set(this.buf.subarray(0, this.used));
    this.buf = grown;
  }

  /** The first `count` entries as a stored chunk. */
  pack(count: number): Uint8Array {
    const head = 1 + count * 2;
    const size = count === 0 ? 0 : this.ends[count - 1];
    const out = new Uint8Array(head + size);
    out[0] = count;
    for (let i = 0; i < count; i++) {
      out[1 + i * 2] = this.ends[i] >> 8;
      out[2 + i * 2] = this.ends[i] & 255;
    }
    out.set(this.buf.subarray(0, size), head);
    return out;
  }
}
