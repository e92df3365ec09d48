// A thread of its own for the event log's fdatasync, so the observer's thread works while the disk
// flushes (it renders the entry's serving documents meanwhile: observer.ts `meanwhile`). Not the
// libuv pool's async fdatasync: chdb runs every query and insert on that pool, and a sync queued
// behind long inserts kept the node waiting (writer.ts). The sync is asked through two shared Int32
// slots (a sequence number and the fd; the thread blocks in Atomics.wait on them) and answered by
// a message, which wakes the asking thread's event loop as any I/O does. Not Atomics.waitAsync: V8
// posts its resolution to Node's task queue, whose integration has known gaps, and an ack that
// awaited it once waited 30 s in CI (not reproduced; bench/RESULTS.md, twenty-second session).
import { Worker } from 'node:worker_threads';

const ASKED = 0;
const FD = 1;

// CommonJS, evaluated: a dozen lines need no module file of their own (or the TypeScript loader).
const THREAD_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
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
  parentPort.postMessage(errno);
}
`;

export interface SyncThread {
  /** Resolves once `fd`'s written data is on disk; one sync at a time (the writer's flushes are). */
  sync(fd: number): Promise<void>;
  close(): Promise<void>;
}

export function startSyncThread(): SyncThread {
  const shared = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  const slots = new Int32Array(shared);
  const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: shared, name: 'log-sync' });
  // Referenced only while a sync waits on it (below), so an idle thread never holds the process.
  worker.unref();
  let exited: Error | null = null;
  let waiting: { resolve(): void; reject(e: Error): void } | null = null;
  const fail = (e: Error) => {
    exited ??= e;
    const w = waiting;
    waiting = null;
    w?.reject(exited);
  };
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('the event log sync thread exited')));
  worker.on('message', (errno: number) => {
    const w = waiting;
    waiting = null;
    worker.unref();
    if (errno === 0) w?.resolve();
    else w?.reject(new Error(`fdatasync of the event log failed (errno ${-errno})`));
  });
  let asked = 0;
  return {
    sync(fd) {
      if (exited) return Promise.reject(exited);
      if (waiting) return Promise.reject(new Error('a sync is already running'));
      return new Promise<void>((resolve, reject) => {
        waiting = { resolve, reject };
        worker.ref();
        Atomics.store(slots, FD, fd);
        Atomics.store(slots, ASKED, ++asked);
        Atomics.notify(slots, ASKED);
      });
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
