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

/** Counts rows and whether ids ascend, without keeping them. */
export async function scanTsv(file: string): Promise<{ rows: number; sorted: boolean }> {
  let rows = 0;
  let sorted = true;
  let prev = -Infinity;
  for await (const line of lines(file)) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const id = Number(line.slice(0, tab));
    if (id < prev) sorted = false;
    prev = id;
    rows++;
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
