// A JSON answer assembled as UTF-8 bytes. Stored fragments (a tx document's body) are copied in as
// the bytes they are stored as: a page of 50 txs spent ~35 µs decoding them to strings and encoding
// the joined answer back (bench/RESULTS.md, issue 35).
interface Utf8Writable {
  utf8Write(s: string, offset: number): number;
}

const SHORT_ESCAPES: Record<number, string> = { 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0c: 'f', 0x0d: 'r', 0x22: '"', 0x5c: '\\' };
const HEX = '0123456789abcdef';

/** Writes a quote, a backslash or a control character as JSON.stringify does; the next offset. */
function escapeByte(out: Buffer, n: number, c: number): number {
  out[n++] = 0x5c;
  const short = SHORT_ESCAPES[c];
  if (short) {
    out[n++] = short.charCodeAt(0);
    return n;
  }
  for (const ch of `u00${HEX[c >> 4]}${HEX[c & 15]}`) out[n++] = ch.charCodeAt(0);
  return n;
}

export class JsonBytesWriter {
  private buf: Buffer;
  length = 0;

  constructor(size = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Starts over, keeping the buffer (one scratch writer serves a thread's answers in turn). */
  reset(): this {
    this.length = 0;
    return this;
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length + n));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }

  text(s: string): this {
    this.room(s.length * 3);
    // The binding's own call: Buffer#write's argument checks cost more than a short string's copy.
    this.length += (this.buf as unknown as Utf8Writable).utf8Write(s, this.length);
    return this;
  }

  /**
   * UTF-8 bytes as a JSON string literal, escaped as JSON.stringify escapes the string they encode
   * (quotes, backslashes, controls). False, with nothing written, for bytes that encode a lone
   * surrogate (JSON.stringify writes those as \u escapes): the caller renders that string itself.
   */
  jsonString(b: Uint8Array, start: number, end: number): boolean {
    const mark = this.length;
    this.room(2 + 6 * (end - start));
    const out = this.buf;
    let n = this.length;
    out[n++] = 0x22;
    for (let i = start; i < end; i++) {
      const c = b[i];
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
        // 0xED 0xA0-0xBF: a UTF-16 surrogate's three-byte form.
        if (c === 0xed && i + 1 < end && b[i + 1] >= 0xa0) {
          this.length = mark;
          return false;
        }
        out[n++] = c;
      } else n = escapeByte(out, n, c);
    }
    out[n++] = 0x22;
    this.length = n;
    return true;
  }

  /** A short ASCII string (members' names, numbers, flags), copied here: a native call costs more. */
  ascii(s: string): this {
    this.room(s.length);
    const out = this.buf;
    let n = this.length;
    for (let i = 0; i < s.length; i++) out[n++] = s.charCodeAt(i);
    this.length = n;
    return this;
  }

  bytes(b: Uint8Array, start = 0, end = b.length): this {
    this.room(end - start);
    // A view made directly: Buffer's own subarray costs more than a short copy.
    if (end - start > 32) this.buf.set(new Uint8Array(b.buffer, b.byteOffset + start, end - start), this.length);
    else for (let i = start, n = this.length; i < end; i++) this.buf[n++] = b[i];
    this.length += end - start;
    return this;
  }

  /** What was written, in this writer's own buffer: valid until the writer is reset. */
  written(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

/**
 * Writers lent to answers that go to the socket straight from the writer's buffer: a 35 KB page's
 * copy and its new buffer cost ~7 µs, and the GC's share of the buffers made (280 MB/s at 8,000
 * pages a second) more. A writer comes back (`returnWriter`) once its answer is written; one never
 * returned (an answer read another way) is left to the GC and the pool makes another.
 */
const idleWriters: JsonBytesWriter[] = [];
const IDLE_KEPT = 64;

export const lendWriter = (): JsonBytesWriter => (idleWriters.pop() ?? new JsonBytesWriter()).reset();

export function returnWriter(w: JsonBytesWriter): void {
  if (idleWriters.length < IDLE_KEPT) idleWriters.push(w);
}
