// Rows as ClickHouse Native data: the engine reads a Native column with a copy, where it parses JSON
// text value by value (its JSON parser was over half of an insert's CPU). Measured on the 100k-tx
// log's rows: principal_events' inserts took 1.0 CPU-s from Native against 2.3-2.4 from
// JSONCompactEachRow, txs' 0.5 against 1.3-1.7.
//
// Only large blocks pay: each block costs the engine a fixed ~80 µs (its column types parsed, its
// columns cast and squashed), so one block per log entry cost more than the JSON it replaced. Rows
// are therefore encoded as fragments: per column, its value streams without a block header. The
// fragments of one insert target are concatenated stream by stream into one block when a batch is
// inserted (mergeFragments), a memory copy.
//
// A Native block is: column count and row count (varints), then per column its name, its type
// (strings) and its values. Values are written by the column's type in the table (column-types.ts):
// String, LowCardinality(String) and Enum8 travel as String (the insert casts them), integers
// little-endian (UInt128 / Int128 as 16 bytes, two's complement), Float64, Nullable(T) as a null map
// then the T values, Array(T) as cumulative UInt64 offsets then the elements, DateTime64(3) as
// milliseconds.

type Row = Record<string, unknown>;

class Writer {
  buf: Buffer;
  view: DataView;
  pos = 0;

  constructor(size: number) {
    // Its own ArrayBuffer (not Node's pool), so it can be moved to another thread.
    this.buf = Buffer.from(new ArrayBuffer(Math.max(size, 256)));
    this.view = new DataView(this.buf.buffer);
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.from(new ArrayBuffer(Math.max(this.buf.length * 2, this.pos + n)));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  varint(n: number): void {
    this.ensure(10);
    while (n >= 0x80) {
      this.buf[this.pos++] = (n & 0x7f) | 0x80;
      n = Math.floor(n / 128);
    }
    this.buf[this.pos++] = n;
  }

  string(s: string): void {
    const len = Buffer.byteLength(s);
    this.varint(len);
    this.ensure(len);
    // A string whose UTF-8 length is its length is ASCII: latin1 writes it without encoding.
    this.pos += this.buf.write(s, this.pos, len, len === s.length ? 'latin1' : 'utf8');
  }

  /** A column of strings. When all are ASCII (hashes, principals, hex: nearly always) the lengths'
   *  varints and the strings are joined into one latin1 string and written with one call (two
   *  native calls per value cost more than the engine's JSON parsing saved). The values are
   *  ASCII exactly when the joined text's UTF-8 length exceeds its length only by the varints'
   *  characters of 0x80 or more (every other such character adds at least one byte too): one join,
   *  not a second one to check the values first (that cost ~40% more a value, and a tenth of a
   *  decode worker's allocations). */
  strings(values: readonly unknown[]): void {
    let out = '';
    let highVarintChars = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      const s = typeof v === 'string' ? v : str(v);
      const length = varintChars(s.length);
      // A varint's bytes but its last have the high bit set.
      highVarintChars += length.length - 1;
      out += length + s;
    }
    if (Buffer.byteLength(out) !== out.length + highVarintChars) {
      for (const v of values) this.string(str(v));
      return;
    }
    this.ensure(out.length);
    this.pos += this.buf.write(out, this.pos, out.length, 'latin1');
  }
}

/** A varint as latin1 characters (one per byte). */
function varintChars(n: number): string {
  if (n < 0x80) return String.fromCharCode(n);
  let out = '';
  while (n >= 0x80) {
    out += String.fromCharCode((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  return out + String.fromCharCode(n);
}

/** Writes one column's values, stream by stream (`next` marks where each stream ends). */
type ColumnWriter = (w: Writer, values: readonly unknown[], next: () => void) => void;

const str = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'string' ? v : String(v));

function big(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (v === null || v === undefined || v === '') return 0n;
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  if (typeof v === 'boolean') return v ? 1n : 0n;
  return BigInt(v as string);
}

function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v === null || v === undefined || v === '') return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return Number(v);
}

const fixed =
  (size: number, put: (d: DataView, v: unknown, at: number) => void): ColumnWriter =>
  (w, values, next) => {
    w.ensure(size * values.length);
    const d = w.view;
    // Indexed loops here and below: these writers are shared by every column type, so they often
    // run unoptimized, where for-of over an array allocates a result object per value.
    for (let i = 0; i < values.length; i++) {
      put(d, values[i], w.pos);
      w.pos += size;
    }
    next();
  };

const MASK64 = (1n << 64n) - 1n;
const TWO32 = 2 ** 32;

/** An integer that is a safe JS number (the common case), else null. */
function safeInt(v: unknown): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  if (typeof v === 'string') {
    if (v.length > 15 || v.length === 0) return v === '' ? 0 : null;
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : null;
  }
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return null;
}

/** 64 bits little-endian, from a safe number without BigInt when it can. */
function put64(d: DataView, v: unknown, at: number, signed: boolean): void {
  const n = safeInt(v);
  if (n !== null && n >= 0) {
    d.setUint32(at, n % TWO32, true);
    d.setUint32(at + 4, Math.floor(n / TWO32), true);
  } else if (signed) d.setBigInt64(at, BigInt.asIntN(64, big(v)), true);
  else d.setBigUint64(at, big(v) & MASK64, true);
}

function put128(d: DataView, v: unknown, at: number): void {
  const n = safeInt(v);
  if (n !== null && n >= 0) {
    d.setUint32(at, n % TWO32, true);
    d.setUint32(at + 4, Math.floor(n / TWO32), true);
    d.setBigUint64(at + 8, 0n, true);
    return;
  }
  const x = big(v) & ((1n << 128n) - 1n);
  d.setBigUint64(at, x & MASK64, true);
  d.setBigUint64(at + 8, x >> 64n, true);
}

/** Milliseconds of a 'YYYY-MM-DD hh:mm:ss[.fff]' UTC text (or a number of them). */
function millis(v: unknown): bigint {
  if (typeof v === 'number' || typeof v === 'bigint') return BigInt(v);
  const t = Date.parse(`${str(v).replace(' ', 'T')}Z`);
  return BigInt(Number.isFinite(t) ? t : 0);
}

interface ColumnCodec {
  /** The type the block declares (the insert casts it to the table's). */
  wire: string;
  write: ColumnWriter;
  /** How many streams its values take, and which of them are array offsets (rebased on merge). */
  streams: number;
  offsetStreams: readonly number[];
  /** A value standing in for null inside a Nullable column. */
  zero: unknown;
}

const codecs = new Map<string, ColumnCodec>();

/** How a column of `type` is written. */
export function codecOf(type: string): ColumnCodec {
  let c = codecs.get(type);
  if (!c) codecs.set(type, (c = makeCodec(type)));
  return c;
}

const single = (wire: string, zero: unknown, write: ColumnWriter): ColumnCodec => ({ wire, zero, write, streams: 1, offsetStreams: [] });

function makeCodec(type: string): ColumnCodec {
  const inner = /^(\w+)\((.*)\)$/s.exec(type);
  if (inner && inner[1] === 'Nullable') {
    const t = codecOf(inner[2]);
    return {
      wire: `Nullable(${t.wire})`,
      zero: null,
      streams: 1 + t.streams,
      offsetStreams: t.offsetStreams.map((s) => s + 1),
      write: (w, values, next) => {
        w.ensure(values.length);
        for (let i = 0; i < values.length; i++) w.buf[w.pos++] = values[i] === null || values[i] === undefined ? 1 : 0;
        next();
        t.write(w, values.map((v) => (v === null || v === undefined ? t.zero : v)), next);
      },
    };
  }
  if (inner && inner[1] === 'Array') {
    const t = codecOf(inner[2]);
    return {
      wire: `Array(${t.wire})`,
      zero: [],
      streams: 1 + t.streams,
      offsetStreams: [0, ...t.offsetStreams.map((s) => s + 1)],
      write: (w, values, next) => {
        const flat: unknown[] = [];
        w.ensure(8 * values.length);
        for (let i = 0; i < values.length; i++) {
          const v = values[i] as unknown[] | null | undefined;
          if (v) for (let k = 0; k < v.length; k++) flat.push(v[k]);
          put64(w.view, flat.length, w.pos, false);
          w.pos += 8;
        }
        next();
        t.write(w, flat, next);
      },
    };
  }
  if (type === 'String' || (inner && (inner[1] === 'LowCardinality' || inner[1] === 'Enum8' || inner[1] === 'Enum16'))) {
    return single('String', '', (w, values, next) => {
      w.strings(values);
      next();
    });
  }
  if (inner && inner[1] === 'DateTime64') return single(type, 0, fixed(8, (d, v, at) => d.setBigInt64(at, millis(v), true)));
  switch (type) {
    case 'UInt8':
      return single(type, 0, fixed(1, (d, v, at) => d.setUint8(at, num(v) & 0xff)));
    case 'UInt16':
      return single(type, 0, fixed(2, (d, v, at) => d.setUint16(at, num(v) & 0xffff, true)));
    case 'UInt32':
      return single(type, 0, fixed(4, (d, v, at) => d.setUint32(at, num(v) >>> 0, true)));
    case 'Int32':
      return single(type, 0, fixed(4, (d, v, at) => d.setInt32(at, num(v) | 0, true)));
    case 'UInt64':
      return single(type, 0, fixed(8, (d, v, at) => put64(d, v, at, false)));
    case 'Int64':
      return single(type, 0, fixed(8, (d, v, at) => put64(d, v, at, true)));
    case 'UInt128':
    case 'Int128':
      return single(type, 0, fixed(16, put128));
    case 'Float64':
      return single(type, 0, fixed(8, (d, v, at) => d.setFloat64(at, num(v), true)));
    default:
      throw new Error(`no Native encoding for column type ${type}`);
  }
}

/** One insert target's rows as column streams, without a block header: `ends[i]` is where stream i
 *  ends in `bytes` (streams in column order, each column's in its codec's order). */
export interface NativeFragment {
  rows: number;
  bytes: Uint8Array;
  ends: Uint32Array;
}

const columnReaders = new Map<string, (rows: readonly Row[]) => unknown[][]>();

/** rows -> their values column by column, by a function made once per column list: each property
 *  is read at a call site of its own (one shared `r[name]` site sees every table's shapes and is
 *  several times slower). */
function columnReader(columns: readonly string[]): (rows: readonly Row[]) => unknown[][] {
  const key = columns.join(',');
  let read = columnReaders.get(key);
  if (!read) {
    for (const c of columns) if (!/^\w+$/.test(c)) throw new Error(`column name ${JSON.stringify(c)} is not a plain identifier`);
    const body = `const n = rows.length; ${columns.map((_, i) => `const c${i} = new Array(n);`).join(' ')}
      for (let i = 0; i < n; i++) { const r = rows[i]; ${columns.map((c, i) => `c${i}[i] = r.${c};`).join(' ')} }
      return [${columns.map((_, i) => `c${i}`).join(', ')}];`;
    read = new Function('rows', body) as (rows: readonly Row[]) => unknown[][];
    columnReaders.set(key, read);
  }
  return read;
}

/** `rows` (objects keyed by column name) as a fragment of `columns` (of the given table types). */
export function encodeFragment(columns: readonly string[], types: readonly string[], rows: readonly Row[]): NativeFragment {
  const w = new Writer(64 + rows.length * columns.length * 24);
  const ends: number[] = [];
  const next = () => ends.push(w.pos);
  const values = columnReader(columns)(rows);
  for (let c = 0; c < columns.length; c++) codecOf(types[c]).write(w, values[c], next);
  const endsArray = new Uint32Array(ends);
  return { rows: rows.length, bytes: new Uint8Array(w.buf.buffer, 0, w.pos), ends: endsArray };
}

/** The fragments of one target (same columns) as one Native block. */
export function mergeFragments(columns: readonly string[], types: readonly string[], fragments: readonly NativeFragment[]): Uint8Array {
  const total = fragments.reduce((n, f) => n + f.bytes.length, 0);
  const w = new Writer(total + 64 + columns.length * 64);
  w.varint(columns.length);
  w.varint(fragments.reduce((n, f) => n + f.rows, 0));
  let stream = 0;
  for (let c = 0; c < columns.length; c++) {
    const codec = codecOf(types[c]);
    w.string(columns[c]);
    w.string(codec.wire);
    for (let s = 0; s < codec.streams; s++, stream++) {
      const rebase = codec.offsetStreams.includes(s);
      let base = 0n;
      for (const f of fragments) {
        const from = stream === 0 ? 0 : f.ends[stream - 1];
        const to = f.ends[stream];
        w.ensure(to - from);
        if (!rebase) {
          w.buf.set(f.bytes.subarray(from, to), w.pos);
          w.pos += to - from;
          continue;
        }
        // Array offsets are cumulative within a fragment: shifted by the elements before it.
        const view = new DataView(f.bytes.buffer, f.bytes.byteOffset + from, to - from);
        let last = 0n;
        for (let at = 0; at < to - from; at += 8) {
          last = view.getBigUint64(at, true);
          w.view.setBigUint64(w.pos, base + last, true);
          w.pos += 8;
        }
        base += last;
      }
    }
  }
  return new Uint8Array(w.buf.buffer, 0, w.pos);
}

/** A fragment read back from a message (its typed arrays crossed threads as plain views). */
export function isFragment(v: unknown): v is NativeFragment {
  return typeof v === 'object' && v !== null && 'rows' in v && 'bytes' in v && 'ends' in v;
}
