// `npx tsx bench/ingest/event-log-compress.ts --log <tsv> [--dir bench/out/event-log-compress]`:
// what compressing the event log costs and saves. The log is written from the export in the
// service's 32 MiB segments, then every sealed segment is compressed as the compactor does once
// processed. Prints the log's disk before and after, the CPU of the compression (all threads:
// process.cpuUsage) per MB and per tx, reads of the whole log and of single records from both
// forms, the candidate codecs measured on the same frames, and what a durable append (the node's
// ack: 1.5 KB written and fdatasync'ed on a thread of its own, as the observer thread does) costs
// while the compaction runs and while nothing does. Make a log with
// `npm run gen -- --txs 100000 --seed 7 --network testnet --out /tmp/x.tsv`.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, brotliDecompressSync, constants, gzipSync } from 'node:zlib';
import { EventLogWriter, type AppendInput } from '../../src/ingest/event-log/writer.ts';
import { readRecord, readRecords } from '../../src/ingest/event-log/reader.ts';
import { EventLogCompactor } from '../../src/ingest/event-log/compactor.ts';
import { FRAME_BYTES } from '../../src/ingest/event-log/segment-compress.ts';
import { readTsvRowsRaw } from '../../src/ingest/tsv/read-tsv.ts';
import { parseTimestamp } from '../../src/ingest/tsv/copy-text.ts';
import { commit, machine, percentile } from '../lib/env.ts';

const { values } = parseArgs({ options: { log: { type: 'string' }, dir: { type: 'string', default: 'bench/out/event-log-compress' } } });
if (!values.log) {
  console.error('usage: npx tsx bench/ingest/event-log-compress.ts --log <events.tsv> [--dir <scratch dir>]');
  process.exit(2);
}
const dir = values.dir!;
const MB = 1e6;
const MiB = 1024 * 1024;

/** CPU seconds of the whole process (every thread) and wall seconds of `fn`. */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; cpu: number; wall: number }> {
  const c = process.cpuUsage();
  const t = performance.now();
  const value = await fn();
  const d = process.cpuUsage(c);
  return { value, cpu: (d.user + d.system) / 1e6, wall: (performance.now() - t) / 1000 };
}

function diskBytes(): { plain: number; compressed: number; files: number } {
  const out = { plain: 0, compressed: 0, files: 0 };
  for (const n of readdirSync(dir).filter((f) => /\.segz?$/.test(f))) {
    out[n.endsWith('.segz') ? 'compressed' : 'plain'] += statSync(join(dir, n)).size;
    out.files++;
  }
  return out;
}

/** Writes the export as the observer would, in the default segment size. */
async function writeLog(): Promise<{ records: number; txs: number }> {
  rmSync(dir, { recursive: true, force: true });
  const w = await EventLogWriter.open(dir);
  const chunk: AppendInput[] = [];
  let records = 0;
  let txs = 0;
  for await (const row of readTsvRowsRaw(values.log!)) {
    if (row.path === '/new_block') txs += (JSON.parse(row.payload.toString('utf8')) as { transactions: unknown[] }).transactions.length;
    chunk.push({ path: row.path, body: row.payload, receivedAt: parseTimestamp(row.timestamp) });
    records++;
    // Small appends, so segments close near their size as they do under a node's requests.
    if (chunk.length >= 100) await w.appendMany(chunk.splice(0));
  }
  await w.appendMany(chunk);
  await w.close();
  return { records, txs };
}

async function readAllOf(): Promise<{ records: number; bytes: number }> {
  let records = 0;
  let bytes = 0;
  for await (const r of readRecords(dir)) {
    records++;
    bytes += r.body.length;
  }
  return { records, bytes };
}

/** Single-record reads (as a reorg's old block is read back): p50 and p99 in ms. */
async function randomReads(ids: number[]): Promise<string> {
  const ms: number[] = [];
  for (const id of ids) {
    const t = performance.now();
    await readRecord(dir, id);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return `p50 ${percentile(ms, 50).toFixed(2)} ms, p99 ${percentile(ms, 99).toFixed(2)} ms`;
}

/** The candidate codecs on frames of FRAME_BYTES of the first 64 MB of bodies (sync, one thread). */
async function codecs(): Promise<string[]> {
  const frames: Buffer[] = [];
  let pending: Buffer[] = [];
  let length = 0;
  let total = 0;
  for await (const r of readRecords(dir)) {
    const bytes = Buffer.from(r.body);
    if (length + bytes.length > FRAME_BYTES && length > 0) {
      frames.push(Buffer.concat(pending));
      [pending, length] = [[], 0];
    }
    pending.push(bytes);
    length += bytes.length;
    total += bytes.length;
    if (total > 64 * MB) break;
  }
  const input = frames.reduce((n, f) => n + f.length, 0) / MB;
  const brotli = (q: number) => (b: Buffer) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: q, [constants.BROTLI_PARAM_LGWIN]: 22, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } });
  const rows: string[] = [];
  for (const [name, compress] of [['brotli q1', brotli(1)], ['brotli q2', brotli(2)], ['brotli q3', brotli(3)], ['gzip 1', (b: Buffer) => gzipSync(b, { level: 1 })]] as const) {
    const c = await measured(async () => frames.map(compress));
    const size = c.value.reduce((n, f) => n + f.length, 0);
    const d = name.startsWith('brotli') ? await measured(async () => c.value.forEach((f) => brotliDecompressSync(f))) : undefined;
    rows.push(`| ${name} | ${((100 * size) / (input * MB)).toFixed(1)}% | ${((c.cpu * 1000) / input).toFixed(2)} | ${d ? ((d.cpu * 1000) / input).toFixed(2) : '–'} |`);
  }
  return rows;
}

/** Durable appends at 200 a second on a thread of their own while `during` runs: p50 / p99 / max. */
async function acksDuring(during: () => Promise<unknown>): Promise<string> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const fs = require('node:fs');
     const fd = fs.openSync(workerData, 'a');
     const record = Buffer.alloc(1500, 7);
     const times = [];
     let stop = false;
     parentPort.on('message', () => (stop = true));
     const tick = () => {
       if (stop) return parentPort.postMessage(times);
       const t = performance.now();
       fs.writeSync(fd, record);
       fs.fdatasyncSync(fd);
       times.push(performance.now() - t);
       setTimeout(tick, 5);
     };
     tick();`,
    { eval: true, workerData: join(dir, 'acks.probe') },
  );
  const done = new Promise<number[]>((resolve) => worker.once('message', resolve));
  await during();
  worker.postMessage('stop');
  const times = (await done).sort((a, b) => a - b);
  await worker.terminate();
  rmSync(join(dir, 'acks.probe'), { force: true });
  return `n ${times.length}, p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms, max ${times.at(-1)!.toFixed(1)} ms`;
}

const built = await measured(writeLog);
const { records, txs } = built.value;
const before = diskBytes();
const plainRead = await measured(readAllOf);
const sample = Array.from({ length: 200 }, (_, i) => 1 + Math.floor(((i + 0.5) * records) / 200));
const plainRandom = await randomReads(sample);
const table = await codecs();

const lines: string[] = [];
let compacted!: Awaited<ReturnType<typeof measured>>;
const acksCompacting = await acksDuring(async () => {
  compacted = await measured(async () => {
    const c = EventLogCompactor.start(dir, { processedId: () => Number.MAX_SAFE_INTEGER, intervalMs: 3_600_000, log: (l) => lines.push(l) });
    await c.compressDue();
    await c.stop();
  });
});
const acksIdle = await acksDuring(() => new Promise((r) => setTimeout(r, compacted.wall * 1000)));
const after = diskBytes();
const compressedRead = await measured(readAllOf);
const compressedRandom = await randomReads(sample);
if (compressedRead.value.records !== records || compressedRead.value.bytes !== plainRead.value.bytes) throw new Error('the compressed log does not read back as the plain one');

const sealedPlain = before.plain - after.plain;
console.log(`event log compression, ${machine()}, commit ${commit()}`);
console.log(`log: ${values.log}: ${records.toLocaleString('en-US')} records, ${txs.toLocaleString('en-US')} txs`);
console.log('');
console.log('| | disk | segments | per tx |');
console.log('|---|---|---|---|');
console.log(`| plain | ${(before.plain / MiB).toFixed(1)} MiB | ${before.files} | ${(before.plain / txs).toFixed(0)} B |`);
console.log(`| compressed (all but the newest segment) | ${((after.plain + after.compressed) / MiB).toFixed(1)} MiB (${(after.compressed / MiB).toFixed(1)} compressed + ${(after.plain / MiB).toFixed(1)} newest, plain) | ${after.files} | ${((after.plain + after.compressed) / txs).toFixed(0)} B |`);
console.log('');
console.log(`compressed segments: ${(sealedPlain / MiB).toFixed(1)} -> ${(after.compressed / MiB).toFixed(1)} MiB (${((100 * after.compressed) / sealedPlain).toFixed(1)}%)`);
console.log(`compaction: ${compacted.cpu.toFixed(2)} CPU-s (${((compacted.cpu * 1000) / (sealedPlain / MB)).toFixed(2)} ms per MB, ${((compacted.cpu * 1e6) / (txs * (sealedPlain / before.plain))).toFixed(1)} µs per tx), ${compacted.wall.toFixed(2)} s wall`);
console.log(`whole-log read: plain ${plainRead.cpu.toFixed(2)} CPU-s / ${plainRead.wall.toFixed(2)} s; compressed ${compressedRead.cpu.toFixed(2)} CPU-s / ${compressedRead.wall.toFixed(2)} s`);
console.log(`single-record reads (200 ids across the log): plain ${plainRandom}; compressed ${compressedRandom}`);
console.log(`durable 1.5 KB appends on another thread: during the compaction ${acksCompacting}; idle ${acksIdle}`);
console.log(`(writing the log from the export: ${built.wall.toFixed(1)} s)`);
console.log('');
console.log(`codecs on ${FRAME_BYTES / MiB} MiB frames of the first 64 MB of bodies (one thread, sync):`);
console.log('| codec | size | compress ms per MB | decompress ms per MB |');
console.log('|---|---|---|---|');
for (const row of table) console.log(row);
for (const l of lines) console.log(l);
