// A thread of its own for the event log's fdatasync, so the observer's thread works while the disk
// flushes (it renders the entry's serving documents meanwhile: observer.ts `meanwhile`). Not the
// libuv pool's async fdatasync: chdb runs every query and insert on that pool, and a sync queued
// behind long inserts kept the node waiting (writer.ts). The threads share four Int32 slots: the
// sync asked for (a sequence number and its fd) and the last one done (with its error, if any).
import { Worker } from 'node:worker_threads';

const ASKED = 0;
const FD = 1;
const DONE = 2;
const ERRNO = 3;

// CommonJS, evaluated: a dozen lines need no module file of their own (or the TypeScript loader).
const THREAD_SOURCE = `
const { workerData } = require('node:worker_threads');
const { fdatasyncSync } = require('node:fs');
const slots = new Int32Array(workerData);
let seen = 0;
for (;;) {
  Atomics.wait(slots, ${ASKED}, seen);
  seen = Atomics.load(slots, ${ASKED});
  if (seen < 0) break;
  let errno = 0;
  try {
    fdatasyncSync(Atomics.load(slots, ${FD}));
  } catch (e) {
    errno = typeof e.errno === 'number' ? -Math.abs(e.errno) || -1 : -1;
  }
  Atomics.store(slots, ${ERRNO}, errno);
  Atomics.store(slots, ${DONE}, seen);
  Atomics.notify(slots, ${DONE});
}
`;

/** Atomics.waitAsync (V8 has it; this TypeScript lib does not declare it). */
const waitAsync = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number, ms: number): { async: boolean; value: Promise<string> | string } }).waitAsync;

export interface SyncThread {
  /** Resolves once `fd`'s written data is on disk; one sync at a time (the writer's flushes are). */
  sync(fd: number): Promise<void>;
  close(): Promise<void>;
}

export function startSyncThread(): SyncThread {
  const shared = new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT);
  const slots = new Int32Array(shared);
  const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: shared, name: 'log-sync' });
  // Referenced only while a sync waits on it (below); an exit is seen by the sync that waits.
  worker.unref();
  let exited: Error | null = null;
  worker.on('error', (e) => (exited = e));
  worker.on('exit', () => (exited ??= new Error('the event log sync thread exited')));
  let asked = 0;
  return {
    async sync(fd) {
      if (exited) throw exited;
      const seq = ++asked;
      Atomics.store(slots, FD, fd);
      Atomics.store(slots, ASKED, seq);
      Atomics.notify(slots, ASKED);
      // A pending waitAsync does not keep the event loop alive; the thread, while referenced, does.
      worker.ref();
      try {
        for (let done = Atomics.load(slots, DONE); done < seq; done = Atomics.load(slots, DONE)) {
          // A timeout only to notice a thread that exited mid-sync.
          const waited = waitAsync(slots, DONE, done, 1_000);
          if (waited.async) await waited.value;
          if (exited) throw exited;
        }
      } finally {
        worker.unref();
      }
      const errno = Atomics.load(slots, ERRNO);
      if (errno !== 0) throw new Error(`fdatasync of the event log failed (errno ${-errno})`);
    },
    async close() {
      Atomics.store(slots, ASKED, -1);
      Atomics.notify(slots, ASKED);
      if (exited) return;
      worker.ref();
      await new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    },
  };
}
