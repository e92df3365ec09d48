// The API on STACKS_API_THREADS threads of this process, all on one port: the main thread's app and
// threads - 1 worker threads' (thread-main.ts), each an identical app (thread-api.ts).
//
// Sharing the port: this uWebSockets.js build has no addChildAppDescriptor (nor any way to hand an
// accepted socket to another app), so each thread listens on the port itself with SO_REUSEPORT and
// the kernel spreads new connections over the threads' sockets (a connection stays on its thread).
// That option would let another process join the port too, so the port is first bound exclusively
// and let go (reserveExclusively): a port another process holds stops start-up as before, and a
// second copy of the service, which does the same, finds it held (listenSharedReserved).
//
// What stays single, on the main thread: the processor and its state, the serving store's writer
// and the event log; the engine (every ClickHouse read, engine-reads.ts); the routes that show the
// event log's live positions or own engine sessions (main-routes.ts); and the process's /metrics,
// merged from every thread's series (metrics-merge.ts). Per thread, kept consistent: the serving
// store is read through each thread's read-only handle of the one LMDB environment, and each
// thread's view follows the main thread's commits (commit-feed.ts); the response cache is per
// thread (its share of the budget) and is invalidated by the same data versions, which the feed
// brings; real-time clients are served by the thread their connection reached, each thread's hub
// following the one journal, so cursors and messages are the same on every thread.
import type { Config } from '../config/config.ts';
import type { ProxyConfig } from '../http/proxy/config.ts';
import type { RealtimeConfig } from '../realtime/config.ts';
import type { Store } from '../storage/client.ts';
import type { Pipeline } from '../ingest/pipeline.ts';
import type { Follower } from '../ingest/follow.ts';
import type { ObserverThread } from '../ingest/observer-thread/observer-thread.ts';
import type { ApiContext } from '../http/context.ts';
import { apiRoutes } from '../http/routes.ts';
import { apiHttpOptions } from '../http/conventions/conventions.ts';
import { listen, listenSharedReserved, type Listening } from '../server/server.ts';
import { metricsText } from '../metrics/registry.ts';
import { watchIngest } from '../ingest/metrics.ts';
import { watchEngineMemory } from '../storage/metrics.ts';
import { threadApi, tickVersions, type ThreadApi } from './thread-api.ts';
import { startApiThreads, type ApiThreads } from './api-threads.ts';
import { CommitFeed } from './commit-feed.ts';
import { storeFacts } from './engine-reads.ts';
import { mergeExposition } from './metrics-merge.ts';

export interface ApiSources {
  /** What the API reads of the checked start-up settings (src/cli/startup.ts). */
  startup: { config: Config; proxy: ProxyConfig; realtime: RealtimeConfig };
  store: Store;
  pipeline?: Pipeline<ObserverThread>;
  follower?: Follower;
  /** A worker thread failed: the process must end. */
  onFailure: (message: string) => void;
}

export interface RunningApi {
  port: number;
  close(): Promise<void>;
}

export async function serveApi({ startup, store, pipeline, follower, onFailure }: ApiSources): Promise<RunningApi> {
  const { config } = startup;
  const reading = pipeline ?? follower;
  const ctx: ApiContext = { store, config, ingest: reading?.status, serving: config.servingReads ? reading?.serving : undefined };
  watchEngineMemory(store);
  // Before the commit feed (below), which chains its own onBatchStored to the one this sets.
  if (reading) watchIngest({ status: reading.status, processor: reading.processor, pool: pipeline?.pool });
  const processor = reading?.processor;
  // Cached answers are keyed on the entry every store holds (processedId: ClickHouse and the serving
  // view), not the checkpoint alone: the checkpoint moves while the batch's serving write is still
  // committing, and an answer the view gave in between would stay cached under the new version.
  const versions = processor ? () => ({ commit: processor.processedId, reorg: processor.reorgGeneration }) : tickVersions;
  // A broadcast the node accepted is in its mempool: record it as the node would announce it, so it
  // shows in the mempool endpoints at once (the node's own announcement then changes nothing).
  const onBroadcastAccepted = pipeline ? (_txid: string, rawTx: Buffer) => void pipeline.writer.append({ path: '/new_mempool_tx', body: Buffer.from(JSON.stringify([`0x${rawTx.toString('hex')}`])) }) : undefined;
  let workers: ApiThreads | undefined;
  const processMetrics = async () => (workers ? mergeExposition([await metricsText(), ...(await workers.threadMetrics())]) : metricsText());
  const api: ThreadApi = threadApi({
    thread: 0,
    threads: config.apiThreads,
    routes: apiRoutes,
    ctx,
    serving: reading?.serving,
    config,
    proxy: startup.proxy,
    realtime: startup.realtime,
    versions,
    reorgGeneration: processor ? () => processor.reorgGeneration : undefined,
    onBroadcastAccepted,
    processMetrics,
  });
  const opened: { listening?: Listening; workers?: ApiThreads } = {};
  const close = async () => {
    opened.listening?.close();
    await opened.workers?.close();
    await api.close();
  };
  try {
    if (config.apiThreads === 1) {
      opened.listening = await listen(api.app, config.apiHost, config.apiPort);
      console.log(`API listening on ${config.apiHost}:${opened.listening.port}`);
      return { port: opened.listening.port, close };
    }
    opened.listening = await listenSharedReserved(api.app, config.apiHost, config.apiPort);
    const port = opened.listening.port;
    const http = apiHttpOptions(config, ctx, reading?.serving?.view);
    workers = opened.workers = await startApiThreads({
      count: config.apiThreads - 1,
      data: {
        threads: config.apiThreads,
        host: config.apiHost,
        port,
        config,
        proxy: startup.proxy,
        realtime: startup.realtime,
        store: storeFacts(store),
        servingDir: reading?.serving?.store.dir,
        processes: !!processor,
        recordsBroadcasts: !!pipeline,
      },
      feed: new CommitFeed({ processor, ingest: reading?.status, view: reading?.serving?.view }),
      store,
      routes: apiRoutes,
      contextFor: (route) => http.contextFor?.(route) ?? ctx,
      processMetrics,
      onBroadcastAccepted,
      onFailure,
    });
    console.log(`API listening on ${config.apiHost}:${port} (${config.apiThreads} threads)`);
    return { port, close };
  } catch (e) {
    await close();
    throw e;
  }
}
