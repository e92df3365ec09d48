// An API worker thread: serves the API on the shared port with its own read-only handle on the
// serving store and its own view of it, kept in step with the main thread's commits
// (commit-follower.ts). Engine reads, the main-thread routes and /metrics are the main thread's
// (rpc.ts); everything else is answered here.
import { parentPort, workerData } from 'node:worker_threads';
import type { ApiContext } from '../http/context.ts';
import type { IngestStatus } from '../ingest/status.ts';
import { apiRoutes } from '../http/routes.ts';
import { listenShared, newApp, closeApp, type Listening } from '../server/server.ts';
import { metricsText } from '../metrics/registry.ts';
import type { ServingStore } from '../serving/store.ts';
import { openThreadServing } from './view-delta.ts';
import { RpcChannel } from './rpc.ts';
import { remoteStore } from './engine-reads.ts';
import { withMainThreadRoutes } from './main-routes.ts';
import { CommitFollower } from './commit-follower.ts';
import { syncedApp } from './synced-app.ts';
import { threadApi, tickVersions, type ThreadApi } from './thread-api.ts';
import { BROADCAST_ACCEPTED, PROCESS_METRICS, THREAD_METRICS, type ApiThreadData, type FromThread, type ToThread } from './messages.ts';

const port = parentPort!;
const data = workerData as ApiThreadData;
const post = (m: FromThread) => port.postMessage(m);
const channel = new RpcChannel(port);

const mainThreadOnly = (what: string) => (): never => {
  throw new Error(`${what} is answered on the main thread (src/api-threads/main-routes.ts)`);
};

/** The positions the feed brings; what only the main-thread routes show is not mirrored. */
function followedIngest(follower: CommitFollower): IngestStatus {
  return {
    receivedId: () => follower.state.receivedId,
    processedId: () => follower.state.processedId,
    error: mainThreadOnly('the processing error'),
    heldBlocks: mainThreadOnly('the held blocks'),
    quarantined: mainThreadOnly('the quarantine'),
  };
}

let serving: ServingStore | undefined;
let follower: CommitFollower | undefined;
let api: ThreadApi | undefined;
let listening: Listening | undefined;

async function run(): Promise<void> {
  const servingParts = data.servingDir ? openThreadServing(data.servingDir) : undefined;
  serving = servingParts?.store;
  follower = new CommitFollower(data.feed, servingParts?.view);
  const f = follower;
  const ctx: ApiContext = {
    store: remoteStore(channel, data.store),
    config: data.config,
    ingest: data.processes ? followedIngest(f) : undefined,
    serving: data.config.servingReads ? servingParts : undefined,
  };
  api = threadApi({
    thread: data.thread,
    threads: data.threads,
    routes: withMainThreadRoutes(apiRoutes, channel),
    ctx,
    serving: servingParts,
    config: data.config,
    proxy: data.proxy,
    realtime: data.realtime,
    // As the main thread keys them (serve-api.ts): the entry every store holds.
    versions: data.processes ? () => ({ commit: f.state.processedId, reorg: f.state.reorgGeneration }) : tickVersions,
    reorgGeneration: data.processes ? () => f.state.reorgGeneration : undefined,
    // Every thread polls the nodes; the main thread's pool logs their changes (errors are logged here too).
    proxyLog: { info: () => {}, warn: () => {}, error: (message, err) => console.error(message, err) },
    onBroadcastAccepted: data.recordsBroadcasts ? (txid, rawTx) => void channel.call(BROADCAST_ACCEPTED, { txid, rawTx }).catch(() => {}) : undefined,
    processMetrics: () => channel.call<string>(PROCESS_METRICS, null),
    app: syncedApp(newApp(), () => f.sync()),
  });
  channel.handle(THREAD_METRICS, () => metricsText());
  listening = await listenShared(api.app, data.host, data.port);
}

/** Closes what is open; the thread then ends by itself (its event loop has nothing left). */
async function close(): Promise<void> {
  listening?.close();
  if (api) closeApp(api.app);
  await api?.close();
  follower?.close();
  await serving?.close();
  channel.close('the API thread closed');
  post({ type: 'closed' });
  port.close();
}

// Node cannot end a thread whose uWS sockets are open (it aborts the process in the thread's
// teardown), so whichever way this thread fails, its sockets close first.
function stopAnswering(): void {
  listening?.close();
  if (api) closeApp(api.app);
}

// An error nothing caught: stop answering and tell the main thread, which ends the process.
process.on('uncaughtException', (err) => {
  stopAnswering();
  post({ type: 'fatal', message: `uncaught error: ${err.message}` });
});
process.on('unhandledRejection', (err) => {
  stopAnswering();
  post({ type: 'fatal', message: `unhandled rejection: ${err instanceof Error ? err.message : String(err)}` });
});
// A thread that exits (process.exit here ends this thread only): the main thread hears of it.
const exitThread = process.exit.bind(process);
process.exit = ((code?: number) => {
  stopAnswering();
  return exitThread(code);
}) as typeof process.exit;

port.on('message', (m: ToThread | { rpc?: string }) => {
  if (!('type' in m)) return;
  if (m.type === 'close') void close();
});

run().then(
  () => post({ type: 'ready' }),
  (e: Error) => post({ type: 'failed', message: e.message }),
);
