// `npx tsx bench/serving-write.ts --import <log.tsv> --data <dir> --capture <file>` (or `--data <dir>
// --capture <file>` on an imported data directory) then `... --replay <file> [--store <dir>]`: the
// serving store's write cost alone (issue 32), apart from decoding and ClickHouse.
// - capture: saves every batch's serving changes while `import-events` imports the log into a fresh
//   data directory (`--import`), or while its event log is replayed into its serving store alone
//   (as `npm run rebuild-serving` does: ClickHouse is read, not written);
// - replay: writes the saved batches into a fresh store with the serving writer only, and reports
//   the CPU of every thread of the process per tx (the main thread's part — issuing the puts, and
//   moving the committed view on — and the rest: LMDB's write thread, GC) over each 100k txs, and the store's size, per database, at
//   each 100k txs. The same capture replayed by two versions of the writer compares their writes.
import { parseArgs } from 'node:util';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Packr } from 'msgpackr';
import { gunzipSync, gzipSync } from 'node:zlib';
import { loadConfig } from '../src/config/config.ts';
import { openStore } from '../src/storage/client.ts';
import { openPipeline } from '../src/ingest/pipeline.ts';
import { openServingStore, servingDir } from '../src/serving/store.ts';
import { ServingWriter } from '../src/serving/writer.ts';
import { ServingChanges } from '../src/serving/changes.ts';
import { ServingView } from '../src/serving/view.ts';
import { dirBytes } from '../src/serving/size.ts';
import { dbSizes, dbSizesText } from './lib/serving-dbs.ts';

const packr = new Packr({ useRecords: false });

interface Captured {
  ops: ServingChanges['ops'];
  snapshot: ServingChanges['snapshot'];
  entryStarts: ServingChanges['entryStarts'];
  logTo: number;
  logHead: number;
}

/** Nanoseconds the main thread has run (schedstat: exact, where /proc's stat counts 10 ms ticks). */
const mainThreadNs = (): number => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
const cpuNs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
};

/** From here on, every serving write of this process also saves its batch to `file`. */
export function captureWrites(file: string): { batches: () => number; close: () => void } {
  const fd = openSync(file, 'w');
  const write = ServingWriter.prototype.write;
  let batches = 0;
  ServingWriter.prototype.write = function (this: ServingWriter, changes: ServingChanges, logTo: number, logHead = logTo) {
    // Compressed (gzip level 1): a 1M-tx log's batches are gigabytes of documents.
    const bytes = gzipSync(packr.pack({ ops: changes.ops, snapshot: changes.snapshot, entryStarts: changes.entryStarts, logTo, logHead } satisfies Captured), { level: 1 });
    const len = Buffer.alloc(4);
    len.writeUInt32LE(bytes.length);
    writeSync(fd, len);
    writeSync(fd, bytes);
    batches++;
    return write.call(this, changes, logTo, logHead);
  };
  return { batches: () => batches, close: () => closeSync(fd) };
}

async function capture(dataDir: string, file: string): Promise<void> {
  process.env.STACKS_API_DATA_DIR = dataDir;
  const config = loadConfig();
  const store = await openStore(config.store, config.dataDir);
  rmSync(servingDir(dataDir), { recursive: true, force: true });
  const { batches, close } = captureWrites(file);
  const t0 = performance.now();
  const pipeline = await openPipeline(store, dataDir, { live: false });
  await pipeline.close();
  close();
  await store.client.close();
  console.log(`captured ${batches()} batches in ${((performance.now() - t0) / 1000).toFixed(1)} s to ${file}`);
}

/** `import-events` of `log` into a fresh `dataDir`, its serving writes saved to `file` meanwhile. */
async function captureImport(log: string, dataDir: string, file: string): Promise<void> {
  const { spawn } = await import('node:child_process');
  rmSync(dataDir, { recursive: true, force: true });
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', new URL('./lib/capture-serving.mjs', import.meta.url).pathname, new URL('../src/cli/import-events.ts', import.meta.url).pathname, '--file', log], {
    env: { ...process.env, STACKS_API_DATA_DIR: dataDir, SERVING_CAPTURE: file },
    stdio: 'inherit',
  });
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`import-events exited with ${code}`);
}

function* batchesOf(file: string): Generator<Captured> {
  const fd = openSync(file, 'r');
  const len = Buffer.alloc(4);
  try {
    while (readSync(fd, len, 0, 4, null) === 4) {
      const bytes = Buffer.alloc(len.readUInt32LE(0));
      readSync(fd, bytes, 0, bytes.length, null);
      yield packr.unpack(bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes) as Captured;
    }
  } finally {
    closeSync(fd);
  }
}

const txsOf = (c: Captured): number => c.ops.reduce((n, op) => n + (op.op === 'docs' ? op.served.txs.length : 0), 0);

async function replay(file: string, dir: string, every: number): Promise<void> {
  process.env.STACKS_API_STORE_RESIDENT_MB ??= '0';
  rmSync(dir, { recursive: true, force: true });
  const store = openServingStore(dir);
  const writer = new ServingWriter(store);
  // What the processor does with each batch once written: the committed view moves on.
  const view = new ServingView(store).load();
  let txs = 0;
  let window = { txs: 0, main: 0, all: 0, batches: 0 };
  let total = { main: 0, all: 0 };
  let next = every;
  const rows: string[] = [];
  const sizes: string[] = [];
  for (const c of batchesOf(file)) {
    const changes = Object.assign(new ServingChanges(), { ops: c.ops, snapshot: c.snapshot, entryStarts: c.entryStarts });
    const [m0, a0] = [mainThreadNs(), cpuNs()];
    const done = writer.write(changes, c.logTo, c.logHead);
    const m1 = mainThreadNs();
    const meta = await done;
    const m2 = mainThreadNs();
    view.committed(changes, meta, c.logTo);
    const m3 = mainThreadNs();
    const all = cpuNs() - a0;
    const n = txsOf(c);
    txs += n;
    // The main thread's part: issuing the writes, and moving the view on once they committed.
    const main = m1 - m0 + (m3 - m2);
    window = { txs: window.txs + n, main: window.main + main, all: window.all + all, batches: window.batches + 1 };
    total = { main: total.main + main, all: total.all + all };
    if (txs >= next) {
      rows.push(`| ${(txs - window.txs).toLocaleString('en-US')}–${txs.toLocaleString('en-US')} | ${window.batches} | ${(window.main / window.txs / 1000).toFixed(1)} | ${(window.all / window.txs / 1000).toFixed(1)} |`);
      const mb = dirBytes(dir) / 2 ** 20;
      sizes.push(`${txs.toLocaleString('en-US')} txs: ${mb.toFixed(1)} MiB (${((mb / txs) * 1e5).toFixed(1)} MiB per 100k txs); ${dbSizesText(store)}`);
      console.log(rows.at(-1));
      window = { txs: 0, main: 0, all: 0, batches: 0 };
      while (next <= txs) next += every;
    }
  }
  console.log(`\nserving writes of ${txs.toLocaleString('en-US')} txs (placements stored), µs per tx: main thread (issuing the puts, moving the view) ${(total.main / txs / 1000).toFixed(1)}, all threads ${(total.all / txs / 1000).toFixed(1)}`);
  console.log('| txs | batches | main thread µs/tx | all threads µs/tx |\n|---|---|---|---|');
  console.log(rows.join('\n'));
  const mb = dirBytes(dir) / 2 ** 20;
  console.log(`\nstore: ${mb.toFixed(1)} MiB for ${txs.toLocaleString('en-US')} txs (${((mb / txs) * 1e5).toFixed(1)} MiB per 100k txs)`);
  console.log('| database | entries | MiB |\n|---|---|---|');
  for (const [name, entries, m] of dbSizes(store)) console.log(`| ${name} | ${entries.toLocaleString('en-US')} | ${m.toFixed(1)} |`);
  console.log(`\nsize by ${every.toLocaleString('en-US')} txs:\n${sizes.join('\n')}`);
  await store.close();
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { import: { type: 'string' }, data: { type: 'string' }, capture: { type: 'string' }, replay: { type: 'string' }, store: { type: 'string' }, every: { type: 'string', default: '100000' } } });
  if (values.capture && values.import) {
    if (!values.data) throw new Error('--import needs --data <data dir> (made afresh)');
    await captureImport(values.import, values.data, values.capture);
  } else if (values.capture) {
    if (!values.data) throw new Error('--capture needs --data <data dir> (imported, with its event log)');
    await capture(values.data, values.capture);
  } else if (values.replay) {
    const dir = values.store ?? mkdtempSync(join(tmpdir(), 'serving-write-'));
    await replay(values.replay, dir, Number(values.every));
    if (!values.store) rmSync(dir, { recursive: true, force: true });
  } else throw new Error('usage: serving-write.ts [--import <log.tsv>] --data <dir> --capture <file> | --replay <file> [--store <dir>] [--every N]');
}

// Also imported, by the capture preload (lib/capture-serving.mjs).
if (import.meta.url === `file://${process.argv[1]}` || process.env.SW_MAIN) await main();
