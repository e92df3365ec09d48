// Generated chains for the benchmarks: made once per size under bench/out, and split into a stored
// head and a tail fed live.
import { createWriteStream, existsSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { runCli, ROOT } from './run-cli.ts';
import { readTsvRows } from '../../src/ingest/tsv/read-tsv.ts';
import { copyEscape } from '../../src/ingest/tsv/copy-text.ts';

export const OUT = join(ROOT, 'bench', 'out');

export async function generate(txs: number): Promise<string> {
  const file = join(OUT, `chain-${txs}.tsv`);
  if (!existsSync(file)) {
    const r = await runCli('bench/gen/cli.ts', ['--txs', String(txs), '--seed', '1', '--out', file], {}, { inherit: true });
    if (r.code !== 0) throw new Error(`generating ${txs} txs failed:\n${r.output}`);
  }
  return file;
}

/** Splits a log: the first `fraction` of its rows, and the rest (fed live during a mixed run). */
export async function split(file: string, fraction: number): Promise<[string, string]> {
  const [a, b] = [file.replace(/\.tsv$/, `.head${fraction}.tsv`), file.replace(/\.tsv$/, `.tail${fraction}.tsv`)];
  if (existsSync(a) && existsSync(b)) return [a, b];
  const rows: number[] = [];
  for await (const r of readTsvRows(file)) rows.push(r.id);
  const cut = rows[Math.floor(rows.length * fraction)];
  const [wa, wb] = [createWriteStream(a), createWriteStream(b)];
  for await (const r of readTsvRows(file)) {
    const w = r.id < cut ? wa : wb;
    if (!w.write(`${r.id}\t${r.timestamp}\t${r.path}\t${copyEscape(r.payload)}\n`)) await once(w, 'drain');
  }
  wa.end();
  wb.end();
  await Promise.all([once(wa, 'finish'), once(wb, 'finish')]);
  return [a, b];
}
