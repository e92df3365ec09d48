// The piscina pool that runs decodeEvent off the main thread. Workers are TypeScript modules, so
// they are started with tsx's loader, like the main process.
import { Piscina } from 'piscina';
import { readDecodeThreads } from '../config/tuning.ts';
import type { DecodeOutcome } from './decoded.ts';

export interface DecodePool {
  decode(path: string, body: Uint8Array, bootBody?: Uint8Array, opts?: { withRawTxs?: boolean }): Promise<DecodeOutcome>;
  /** Several entries in one task, outcomes in the same order: a task's round trip costs the
   *  processor's thread ~25 µs however small the entry, and most entries (mempool txs) are small. */
  decodeMany(entries: ReadonlyArray<{ path: string; body: Uint8Array }>): Promise<DecodeOutcome[]>;
  close(): Promise<void>;
  readonly threads: number;
  /** Decode tasks waiting for a thread. */
  readonly queueSize: number;
}

/** STACKS_API_DECODE_THREADS, else one per core (up to 4). A batch is stored while the next is
 *  decoded, so decoding competes with the engine for the cores; a second thread on two cores keeps
 *  one decoding while the other is descheduled (100k-tx import: 5,450-5,580 txs/s vs 4,460-4,680). */
export function defaultDecodeThreads(env: Record<string, string | undefined> = process.env): number {
  return readDecodeThreads(env);
}

const YOUNG_GENERATION_MB = 96;

/** `serve`: the workers render the serving store's documents too. */
export function createDecodePool(threads = defaultDecodeThreads(), opts: { serve?: boolean } = {}): DecodePool {
  const serve = opts.serve !== false;
  const pool = new Piscina({
    filename: new URL('./decode-worker.mjs', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    // A worker holds at most a few tasks: the processor keeps its own read-ahead window.
    concurrentTasksPerWorker: 1,
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
