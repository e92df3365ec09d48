// Main thread: starts the API worker threads, answers their calls (engine reads, main-thread routes,
// the process's metrics, accepted broadcasts), and ends them. A thread that fails after it started
// (an uncaught error, or it exited) is reported once through onFailure: the process then ends, as
// for any uncaught error (src/shutdown.ts).
import { Worker } from 'node:worker_threads';
import type { Store } from '../storage/client.ts';
import type { RouteDef } from '../http/route.ts';
import type { ApiContext } from '../http/context.ts';
import { RpcChannel } from './rpc.ts';
import { serveEngineReads } from './engine-reads.ts';
import { serveMainThreadRoutes } from './main-routes.ts';
import type { CommitFeed } from './commit-feed.ts';
import { BROADCAST_ACCEPTED, PROCESS_METRICS, THREAD_METRICS, type ApiThreadData, type FromThread, type ToThread } from './messages.ts';
import { threadEntry } from '../runtime/thread-entry.ts';

const ENTRY = threadEntry(new URL('./worker.ts', import.meta.url));

export interface ApiThreadsOptions {
  /** Worker threads to start (the main thread serves too). */
  count: number;
  /** What each thread gets, but its number and its end of the feed. */
  data: Omit<ApiThreadData, 'thread' | 'feed'>;
  feed: CommitFeed;
  store: Store;
  routes: readonly RouteDef<ApiContext>[];
  contextFor: (route: RouteDef<ApiContext>) => ApiContext;
  processMetrics: () => Promise<string>;
  onBroadcastAccepted?: (txid: string, rawTx: Buffer) => void;
  onFailure: (message: string) => void;
}

export interface ApiThreads {
  /** Each worker thread's own exposition text. */
  threadMetrics(): Promise<string[]>;
  /** Asks every thread to close and waits for them to end (at most `ms`). */
  close(ms?: number): Promise<void>;
}

const CLOSE_MS = 2500;

interface Running {
  thread: number;
  worker: Worker;
  channel: RpcChannel;
  exited: Promise<void>;
}

export async function startApiThreads(o: ApiThreadsOptions): Promise<ApiThreads> {
  let closing = false;
  let failed = false;
  const fail = (message: string) => {
    if (closing || failed) return;
    failed = true;
    o.onFailure(message);
  };
  const start = (thread: number): { running: Running; ready: Promise<void> } => {
    const feed = o.feed.open();
    const data: ApiThreadData = { ...o.data, thread, feed };
    // The serving store's pages are given back by the main thread for the whole (shared) map.
    const worker = new Worker(ENTRY.filename, { argv: ENTRY.argv, workerData: data, transferList: [feed.port], env: { ...process.env, STACKS_API_STORE_RESIDENT_MB: '0' } });
    const channel = new RpcChannel(worker);
    serveEngineReads(channel, o.store);
    serveMainThreadRoutes(channel, o.routes, o.contextFor);
    channel.handle(PROCESS_METRICS, () => o.processMetrics());
    channel.handle<{ txid: string; rawTx: Uint8Array }, void>(BROADCAST_ACCEPTED, ({ txid, rawTx }) => o.onBroadcastAccepted?.(txid, Buffer.from(rawTx.buffer, rawTx.byteOffset, rawTx.byteLength)));
    let started = false;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (m: FromThread | { rpc?: string }) => {
        if (!('type' in m)) return;
        if (m.type === 'ready') {
          started = true;
          resolve();
        } else if (m.type === 'failed') reject(new Error(m.message));
        else if (m.type === 'fatal') fail(`API thread ${thread}: ${m.message}`);
      });
      worker.on('error', (e) => {
        reject(e);
        if (started) fail(`API thread ${thread}: uncaught error: ${e.message}`);
      });
      worker.once('exit', (code) => {
        channel.close(`API thread ${thread} exited`);
        reject(new Error(`API thread ${thread} exited (${code}) before it listened`));
        if (started) fail(`API thread ${thread} exited (${code})`);
      });
    });
    return { running: { thread, worker, channel, exited }, ready };
  };

  const started = Array.from({ length: o.count }, (_, i) => start(i + 1));
  const running = started.map((s) => s.running);
  const threads: ApiThreads = {
    threadMetrics: () => Promise.all(running.map((r) => r.channel.call<string>(THREAD_METRICS, null).catch(() => ''))),
    async close(ms = CLOSE_MS) {
      closing = true;
      for (const r of running) r.worker.postMessage({ type: 'close' } satisfies ToThread);
      // Not terminated when late: ending a thread with its uWS sockets open aborts the process, and
      // the shutdown's deadline kills it instead (src/shutdown.ts).
      const late = new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
      await Promise.race([Promise.all(running.map((r) => r.exited)), late]);
      o.feed.close();
    },
  };
  try {
    await Promise.all(started.map((s) => s.ready));
  } catch (e) {
    await threads.close();
    throw e;
  }
  return threads;
}
