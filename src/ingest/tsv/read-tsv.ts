// Reads an event export (TSV, optionally gzipped) as rows in id order, dropping repeated ids as
// the reference importer does. Sorted files stream; an unsorted one is sorted in memory.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import { parseTsvLine, payloadText, type TsvRow } from './copy-text.ts';

/** The file's bytes (gunzipped for .gz), with read and gzip errors naming the file. */
async function* fileChunks(file: string, highWaterMark: number): AsyncGenerator<Buffer> {
  const input = createReadStream(file, { highWaterMark });
  const gz = file.endsWith('.gz');
  const source = gz ? input.pipe(createGunzip()) : input;
  // An error of the file stream (not found, unreadable) reaches the gunzip stream's reader too.
  if (gz) input.once('error', (e) => source.destroy(e));
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) yield chunk;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const zlib = typeof err.code === 'string' && err.code.startsWith('Z_');
    throw new Error(`${file}: ${zlib ? `not a valid gzip file (${err.message})` : err.message}`);
  }
}

/** `file:line: message`, with the line's first bytes shown readably (binary escaped). */
export function rowError(file: string, line: number, message: string, bytes?: Buffer): Error {
  const preview = bytes ? `: ${JSON.stringify(bytes.subarray(0, 80).toString('latin1')).replace(/[\x7f-\xff]/g, (c) => `\\x${c.charCodeAt(0).toString(16)}`)}` : '';
  return new Error(`${file}:${line}: ${message}${preview}`);
}

async function* lines(file: string): AsyncGenerator<{ line: number; text: string }> {
  const rl = createInterface({ input: Readable.from(fileChunks(file, 1 << 20)), crlfDelay: Infinity });
  let line = 0;
  for await (const text of rl) yield { line: ++line, text };
}

/** Counts rows and whether ids ascend, without keeping them: only the bytes after each newline
 *  are looked at (a payload never contains a raw newline: COPY escapes it). */
export async function scanTsv(file: string): Promise<{ rows: number; sorted: boolean }> {
  let rows = 0;
  let sorted = true;
  let prev = -Infinity;
  let id = 0;
  let inId = true;
  let sawDigit = false;
  for await (const chunk of fileChunks(file, 1 << 20)) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (inId) {
        if (c >= 0x30 && c <= 0x39) {
          id = id * 10 + (c - 0x30);
          sawDigit = true;
          continue;
        }
        if (c === 0x09 && sawDigit) {
          if (id < prev) sorted = false;
          prev = id;
          rows++;
        }
        inId = false;
        continue;
      }
      if (c === 0x0a) {
        inId = true;
        id = 0;
        sawDigit = false;
        continue;
      }
      // Skip to the end of the line quickly.
      const nl = chunk.indexOf(0x0a, i);
      if (nl < 0) break;
      i = nl - 1;
    }
  }
  return { rows, sorted };
}

export async function* readTsvRows(file: string, opts: { keepDuplicateIds?: boolean } = {}): AsyncGenerator<TsvRow & { line: number }> {
  const { sorted } = await scanTsv(file);
  const seen = new Set<number>();
  const keep = (r: TsvRow) => {
    if (opts.keepDuplicateIds) return true;
    if (seen.has(r.id)) return false;
    seen.add(r.id);
    return true;
  };
  const parse = (line: number, text: string) => {
    try {
      const r = parseTsvLine(text);
      return r && { ...r, line };
    } catch (e) {
      throw rowError(file, line, (e as Error).message);
    }
  };
  if (sorted) {
    for await (const { line, text } of lines(file)) {
      const r = parse(line, text);
      if (r && keep(r)) yield r;
    }
    return;
  }
  const all: Array<TsvRow & { line: number }> = [];
  for await (const { line, text } of lines(file)) {
    const r = parse(line, text);
    if (r && keep(r)) all.push(r);
  }
  all.sort((a, b) => a.id - b.id);
  yield* all;
}

export interface RawTsvRow {
  /** Line number in the file (1-based). */
  line: number;
  id: number;
  timestamp: string;
  path: string;
  /** The payload JSON as bytes (unescaped where the row was COPY-escaped). */
  payload: Buffer;
}

/** Splits a stream into lines without decoding them: each line is a slice of the chunk it sits in
 *  (a line that spans chunks is joined once). */
async function* rawLines(file: string): AsyncGenerator<Buffer> {
  let carry: Buffer | null = null;
  for await (const chunk of fileChunks(file, 4 << 20)) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      yield carry ? Buffer.concat([carry, piece]) : piece;
      carry = null;
      start = nl + 1;
    }
    if (start < chunk.length) carry = carry ? Buffer.concat([carry, chunk.subarray(start)]) : Buffer.from(chunk.subarray(start));
  }
  if (carry && carry.length) yield carry;
}

/**
 * Rows of a sorted export as bytes: the fast path for large imports (no decoding and re-encoding
 * of payloads that need no unescaping). Unsorted files or duplicate ids: use readTsvRows.
 */
export async function* readTsvRowsRaw(file: string): AsyncGenerator<RawTsvRow> {
  let prev = -1;
  let n = 0;
  for await (const line of rawLines(file)) {
    n++;
    if (line.length === 0) continue;
    const t1 = line.indexOf(0x09);
    const t2 = line.indexOf(0x09, t1 + 1);
    const t3 = line.indexOf(0x09, t2 + 1);
    if (t1 < 0 || t2 < 0 || t3 < 0) throw rowError(file, n, 'not a 4-column event row (id, timestamp, path, payload)', line);
    const id = Number(line.toString('latin1', 0, t1));
    if (!Number.isSafeInteger(id)) throw rowError(file, n, 'the id column is not a whole number', line);
    if (id === prev) continue; // a repeated id: dropped, as the reference importer does
    prev = id;
    const payload = line.subarray(t3 + 1);
    yield {
      line: n,
      id,
      timestamp: line.toString('latin1', t1 + 1, t2),
      path: line.toString('utf8', t2 + 1, t3),
      payload: payload.indexOf(0x5c) < 0 ? payload : Buffer.from(payloadText(payload.toString('utf8')), 'utf8'),
    };
  }
}
