// The piscina pool that runs decodeEvent off the main thread. Workers are TypeScript modules, so
// they are started with tsx's loader, like the main process.
import { Piscina } from 'piscina';
import { readDecodeThreads } from '../config/tuning.ts';
import type { DecodeOutcome } from './decoded.ts';
import { threadEntry } from '../runtime/thread-entry.ts';

const ENTRY = threadEntry(new URL('./decode-worker.ts', import.meta.url));

export interface DecodePool {
  decode(path: string, body: Uint8Array, bootBody?: Uint8Array, opts?: { withRawTxs?: boolean }): Promise<DecodeOutcome>;
  /** Several entries in one task, outcomes in the same order: a task's round trip costs the
   *  processor's thread ~25 µs however small the entry, and most entries (mempool txs) are small. */
  decodeMany(entries: ReadonlyArray<{ path: string; body: Uint8Array }>): Promise<DecodeOutcome[]>;
  close(): Promise<void>;
  readonly threads: number;
  /** Decode tasks not yet handed to a thread (each holds up to TASKS_QUEUED_PER_THREAD). */
  readonly queueSize: number;
}

/** STACKS_API_DECODE_THREADS, else one fewer than the cores (1-4). On two cores one thread, with
 *  its next tasks queued (TASKS_QUEUED_PER_THREAD), imports the 100k-tx log faster than two: 3,953
 *  against 3,604 txs/s and 467 against 527 µs of CPU a tx (medians of four interleaved pairs).
 *  A second isolate compiles the decoders again and has its own collector, and two decode threads
 *  with the processor's thread and the engine's contend for two cores. */
export function defaultDecodeThreads(env: Record<string, string | undefined> = process.env): number {
  return readDecodeThreads(env);
}

const YOUNG_GENERATION_MB = 96;
/** Tasks handed to a thread before it finishes the one it runs. With one, a thread that finishes
 *  waits idle until the processor's thread, often busy applying a batch, posts it the next; the
 *  processor keeps its own read-ahead window (decode-ahead.ts), so this only moves that queue into
 *  the thread's port. A thread runs its tasks one after another (the decoder is synchronous). */
const TASKS_QUEUED_PER_THREAD = 4;

/** `serve`: the workers render the serving store's documents too. */
export function createDecodePool(threads = defaultDecodeThreads(), opts: { serve?: boolean } = {}): DecodePool {
  const serve = opts.serve !== false;
  const pool = new Piscina({
    filename: ENTRY.filename,
    argv: ENTRY.argv,
    minThreads: threads,
    maxThreads: threads,
    concurrentTasksPerWorker: TASKS_QUEUED_PER_THREAD,
    idleTimeout: 60_000,
    // A decode allocates many short-lived objects (rows, documents): a young generation larger than
    // V8's default (16 MiB semi-spaces) lets more of them die young instead of being promoted and
    // marked (decoding 10k log entries in one thread: ~8% less CPU with 32 MiB semi-spaces).
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  return {
    threads,
    get queueSize() {
      return pool.queueSize;
    },
    decode: (path, body, bootBody, o) => pool.run({ path, body, bootBody, serve, withRawTxs: o?.withRawTxs }) as Promise<DecodeOutcome>,
    decodeMany: (entries) => pool.run({ entries: entries.map((e) => ({ path: e.path, body: e.body })), serve }) as Promise<DecodeOutcome[]>,
    close: () => pool.destroy(),
  };
}
