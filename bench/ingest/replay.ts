// Ingest benchmark: replays an event log into a fresh embedded store with `import-events` and
// reports throughput, peak RSS and where the time went.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCli } from '../lib/run-cli.ts';

export interface IngestResult {
  label: string;
  entries: number;
  blocks: number;
  txs: number;
  events: number;
  inputMB: number;
  seconds: number;
  txsPerSec: number;
  eventsPerSec: number;
  blocksPerSec: number;
  mbPerSec: number;
  peakRssMB: number;
  appendS: number;
  decodeWaitS: number;
  applyS: number;
  insertS: number;
  dataDir: string;
}

export async function replay(file: string, label: string, opts: { keep?: boolean; dataDir?: string; env?: Record<string, string> } = {}): Promise<IngestResult> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'bench-ingest-'));
  const statsFile = join(dataDir, 'stats.json');
  const r = await runCli('src/cli/import-events.ts', ['--file', file, '--stats-json', statsFile], { STACKS_API_DATA_DIR: dataDir, ...opts.env }, { inherit: true });
  if (r.code !== 0) throw new Error(`import of ${file} failed:\n${r.output}`);
  const s = JSON.parse(readFileSync(statsFile, 'utf8')) as Record<string, number>;
  const seconds = s.wallMs / 1000;
  const inputMB = statSync(file).size / 2 ** 20;
  const result: IngestResult = {
    label,
    entries: s.entries,
    blocks: s.blocks,
    txs: s.txs,
    events: s.events,
    inputMB,
    seconds,
    txsPerSec: s.txs / seconds,
    eventsPerSec: s.events / seconds,
    blocksPerSec: s.blocks / seconds,
    mbPerSec: inputMB / seconds,
    peakRssMB: s.maxRssBytes / 2 ** 20,
    appendS: s.appendMs / 1000,
    decodeWaitS: s.decodeMs / 1000,
    applyS: s.applyMs / 1000,
    insertS: s.insertMs / 1000,
    dataDir,
  };
  if (!opts.keep) rmSync(dataDir, { recursive: true, force: true });
  return result;
}

export function ingestTable(rows: IngestResult[], machine: string, commit: string): string {
  const head = '| log | txs | events | blocks | input MB | wall s | txs/s | events/s | blocks/s | MB/s | peak RSS MB | append s | decode wait s | apply s | insert s | machine | commit |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|';
  const f = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const lines = rows.map((r) => `| ${r.label} | ${f(r.txs)} | ${f(r.events)} | ${f(r.blocks)} | ${f(r.inputMB, 1)} | ${f(r.seconds, 1)} | ${f(r.txsPerSec)} | ${f(r.eventsPerSec)} | ${f(r.blocksPerSec)} | ${f(r.mbPerSec, 1)} | ${f(r.peakRssMB)} | ${f(r.appendS, 1)} | ${f(r.decodeWaitS, 1)} | ${f(r.applyS, 1)} | ${f(r.insertS, 1)} | ${machine} | ${commit} |`);
  return [head, ...lines].join('\n');
}
