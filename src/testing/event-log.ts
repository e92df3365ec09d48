// Test helper: event logs on disk in many small segments, to compress and read back.
import { readdirSync } from 'node:fs';
import { EventLogWriter, type AppendInput } from '../ingest/event-log/writer.ts';
import { readRecords, type ReadOptions } from '../ingest/event-log/reader.ts';
import { RecordStatus } from '../ingest/event-log/record.ts';
import { EventLogCompactor } from '../ingest/event-log/compactor.ts';
import { seeded, type Random } from './fuzz.ts';

export type ReadBack = Awaited<ReturnType<typeof readAll>>[number];

/** Every record from `opts.afterId` on, with its position and size. */
export async function readAll(dir: string, opts: ReadOptions = {}) {
  const out = [];
  for await (const r of readRecords(dir, opts)) out.push(r);
  return out;
}

/** Appends `inputs` one flush each, so a segment closes as soon as it holds `segmentBytes`. */
export async function writeLog(dir: string, inputs: AppendInput[], segmentBytes: number): Promise<void> {
  const w = await EventLogWriter.open(dir, segmentBytes);
  for (const input of inputs) await w.append(input);
  await w.close();
}

/**
 * Records like an observer's: JSON bodies (compressible, as real ones are) of 1 KB to 300 KB,
 * every `bigEvery`-th one of `bigBytes` (a frame of its own when over 1 MiB), some rejected with a
 * note, receive times that are not the append's.
 */
export function sampleInputs(n: number, opts: { seed?: number; bigEvery?: number; bigBytes?: number } = {}): AppendInput[] {
  const rnd = seeded(opts.seed ?? 1);
  return Array.from({ length: n }, (_, i) => {
    const big = opts.bigEvery && (i + 1) % opts.bigEvery === 0;
    const size = big ? opts.bigBytes ?? 1_500_000 : 1000 + rnd.int(300_000);
    const rejected = i % 7 === 3;
    return {
      path: ['/new_block', '/new_mempool_tx', '/new_burn_block', '/attachments/new'][i % 4],
      body: jsonBody(i, size, rnd),
      receivedAt: 1_700_000_000_000 + i * 1234.5,
      ...(rejected ? { status: RecordStatus.Rejected, note: `rejected ${i}: ünïcode note` } : {}),
    };
  });
}

function jsonBody(i: number, size: number, rnd: Random): Buffer {
  const parts = [`{"n":${i},"txs":[`];
  let length = parts[0].length;
  while (length < size) {
    const tx = `{"txid":"0x${rnd.int(2 ** 31).toString(16).padStart(8, '0').repeat(8)}","fee":${rnd.int(100000)},"memo":"${'ab'.repeat(rnd.int(40))}"},`;
    parts.push(tx);
    length += tx.length;
  }
  return Buffer.from(`${parts.join('').slice(0, size - 3)}"]}`);
}

/** What a record is, field by field, its position in the log included. */
export const recordFacts = (r: ReadBack) => ({ id: r.id, receivedAt: r.receivedAt, path: r.path, status: r.status, note: r.note, body: r.body.toString('base64'), position: r.position, size: r.size });

/** Appends the records of log `from` (those `opts` selects) to log `to`, in segments of
 *  `segmentBytes` (1: one record each), with their ids, times, paths, statuses, notes and bodies. */
export async function copyLog(from: string, to: string, segmentBytes: number, opts: ReadOptions = {}): Promise<number> {
  const w = await EventLogWriter.open(to, segmentBytes);
  let n = 0;
  try {
    for await (const r of readRecords(from, opts)) {
      const id = await w.append({ path: r.path, body: Buffer.from(r.body), status: r.status, note: r.note, receivedAt: r.receivedAt });
      if (id !== r.id) throw new Error(`record ${r.id} of ${from} became ${id} in ${to}`);
      n++;
    }
  } finally {
    await w.close();
  }
  return n;
}

/** Compresses every sealed segment of `dir` now, as the service does once they are processed. */
export async function compressSealed(dir: string, processedId = Number.MAX_SAFE_INTEGER): Promise<string[]> {
  const lines: string[] = [];
  const c = EventLogCompactor.start(dir, { processedId: () => processedId, intervalMs: 3_600_000, log: (l) => lines.push(l) });
  await c.compressDue();
  await c.stop();
  return lines;
}

/** The segment files of `dir` by name, in order. */
export const segmentNames = (dir: string): string[] => readdirSync(dir).filter((n) => /^\d{16}\.seg/.test(n)).sort();
