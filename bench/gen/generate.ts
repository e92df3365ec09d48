// Generates a chain into a TSV event log (optionally gzipped): the entry point the CLI and the
// tests share.
import { ChainGenerator } from './chain.ts';
import type { GenOptions, GenStats } from './options.ts';
import { TsvWriter } from './tsv-writer.ts';

export interface FileResult extends GenStats {
  rows: number;
  bytes: number;
  seconds: number;
}

export async function generateFile(opts: GenOptions, out: string, gz: boolean, onProgress?: (txs: number) => void): Promise<FileResult> {
  const started = performance.now();
  const writer = new TsvWriter(out, gz);
  const gen = new ChainGenerator(opts, (path, body, ms) => writer.write(path, body, ms), onProgress);
  const stats = await gen.run();
  await writer.close();
  return { ...stats, rows: writer.rows, bytes: writer.bytes, seconds: (performance.now() - started) / 1000 };
}
