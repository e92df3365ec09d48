// Reads an event export (TSV, optionally gzipped) as rows in id order, dropping repeated ids as
// the reference importer does. Sorted files stream; an unsorted one is sorted in memory.
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import { parseTsvLine, type TsvRow } from './copy-text.ts';

async function* lines(file: string): AsyncGenerator<string> {
  const input = createReadStream(file);
  const rl = createInterface({ input: file.endsWith('.gz') ? input.pipe(createGunzip()) : input, crlfDelay: Infinity });
  for await (const line of rl) yield line;
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
  const input = createReadStream(file, { highWaterMark: 1 << 20 });
  for await (const chunk of (file.endsWith('.gz') ? input.pipe(createGunzip()) : input) as AsyncIterable<Buffer>) {
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

export async function* readTsvRows(file: string, opts: { keepDuplicateIds?: boolean } = {}): AsyncGenerator<TsvRow> {
  const { sorted } = await scanTsv(file);
  const seen = new Set<number>();
  const keep = (r: TsvRow) => {
    if (opts.keepDuplicateIds) return true;
    if (seen.has(r.id)) return false;
    seen.add(r.id);
    return true;
  };
  if (sorted) {
    for await (const line of lines(file)) {
      const r = parseTsvLine(line);
      if (r && keep(r)) yield r;
    }
    return;
  }
  const all: TsvRow[] = [];
  for await (const line of lines(file)) {
    const r = parseTsvLine(line);
    if (r && keep(r)) all.push(r);
  }
  all.sort((a, b) => a.id - b.id);
  yield* all;
}
