// `npm start`: the event observer and the API in one process (or one of them, by STACKS_API_MODE).
import { configOrExit, configOrExitAsync, loadStartupConfig } from './config/startup.ts';
import { openStore, type Store } from './storage/client.ts';
import { migrate } from './storage/migrate.ts';
import { checkStoreLayout, openDataDir } from './ingest/layout-guard.ts';
import { eventLogDir, openPipeline, type Pipeline } from './ingest/pipeline.ts';
import { startObserverThread, type ObserverThread } from './ingest/observer-thread/observer-thread.ts';
import { openFollower, type Follower } from './ingest/follow.ts';
import { createApiApp } from './http/app.ts';
import { listen, type Listening } from './server/server.ts';
import { apiRoutes } from './http/routes.ts';
import type { ApiContext } from './http/context.ts';
import { createProxyPlugin, type ProxyPlugin } from './http/proxy/index.ts';
import { responseCacheFromEnv } from './http/response-cache.ts';
import { followReorgs } from './http/known-canonical.ts';
import { installShutdown } from './shutdown.ts';
import { apiHttpOptions } from './http/conventions.ts';
import { metricsPlugin } from './metrics/http.ts';
import { addExpositionText } from './metrics/registry.ts';
import { watchResponseCache } from './metrics/api.ts';
import { watchIngest } from './metrics/ingest.ts';
import { watchEngineMemory } from './metrics/engine.ts';
import { docsPlugin } from './http/docs/docs.ts';
import { createRealtime, type Realtime } from './realtime/index.ts';

// What is open, for the shutdown (which may come at any point of start-up).
const open: {
  listening: Listening[];
  observer?: ObserverThread;
  pipeline?: Pipeline<ObserverThread>;
  follower?: Follower;
  proxy?: ProxyPlugin;
  realtime?: Realtime;
  store?: Store;
  unlock?: () => void;
} = { listening: [] };

// Servers first (no new requests), then the log is flushed and processing stops, then the store.
const shutdown = installShutdown(async () => {
  for (const l of open.listening) l.close();
  await open.realtime?.close();
  await open.proxy?.close();
  if (open.pipeline) await open.pipeline.close();
  else await open.observer?.close();
  await open.follower?.close();
  await open.store?.client.close();
  open.unlock?.();
});

async function main(): Promise<void> {
  const { config, proxy: proxyConfig, realtime: realtimeConfig } = configOrExit(() => loadStartupConfig());
  const { listening } = open;
  // The data directory is held by a process that writes it (the event log, a follower's stores) or
  // reads an embedded store in it; a read-only process on a server keeps nothing there. One of
  // another data layout is refused before anything is written (src/ingest/layout-guard.ts).
  if (!config.store.url || config.mode !== 'readonly' || config.followLog) {
    const dir = configOrExit(() => openDataDir(config, { lock: true }));
    open.unlock = dir.unlock;
    if (dir.layout.kind === 'current' && dir.layout.reindex) console.log(`${config.dataDir}: a re-index was stopped while processing; processing resumes from its checkpoint (or finish it with \`npm run reindex\`)`);
  }
  const store = (open.store = await openStore(config.store, config.dataDir));
  // The tables too (a server database may be shared with processes of another version).
  await configOrExitAsync(() => checkStoreLayout(store, config), async () => {
    await store.client.close();
    open.unlock?.();
  });
  // A follower with its own embedded store builds its own tables.
  if (config.mode !== 'readonly' || (config.followLog && !config.store.url)) await migrate(store);

  if (config.mode !== 'readonly') {
    // The observer runs on its own thread with the log writer: the node's ack never waits for
    // processing or API work on this one.
    const observer = (open.observer = await startObserverThread({ logDir: eventLogDir(config.dataDir), host: config.eventHost, port: config.eventPort, bodyLimit: config.eventBodyLimit }));
    observer.onFailure((message) => shutdown.exit(message, 1));
    const p = await openPipeline(store, config.dataDir, { live: true, log: observer, mempoolCleanupMs: config.mempoolCleanupMs, liveBatchMs: config.liveBatchMs, servingStore: config.servingStore });
    observer.onDecoded((id, decoded) => {
      // Bounded: when processing lags far behind, entries are decoded again from the log instead.
      // Only without a serving store: the observer's check does not render its documents.
      if (!p.serving && p.processor.handoff.size < 10_000) p.processor.handoff.set(id, decoded as never);
    });
    open.pipeline = p;
    console.log(`event observer listening on ${config.eventHost}:${observer.port}`);
  }
  // A read-only process that follows a writer's log keeps its own serving store (and, embedded, its
  // own ClickHouse tables) up to date from that log.
  if (config.followLog) open.follower = await openFollower(store, config.dataDir, config.followLog, { servingOnly: !!config.store.url });
  if (config.mode !== 'writeonly') {
    const pipeline = open.pipeline;
    const reading = pipeline ?? open.follower;
    const ctx: ApiContext = { store, config, ingest: reading?.status, serving: config.servingReads ? reading?.serving : undefined };
    // Subscriptions follow the serving store's message journal (src/realtime).
    const realtime = (open.realtime = createRealtime(apiRoutes, ctx, reading?.serving, realtimeConfig));
    const proxy = (open.proxy = createProxyPlugin(proxyConfig, {
      // /metrics shows the proxy's series with everyone else's (src/metrics).
      metricsPath: false,
      // A broadcast the node accepted is in its mempool: record it as the node would announce it,
      // so it shows in the mempool endpoints at once (the node's own announcement then changes nothing).
      onBroadcastAccepted: pipeline
        ? (_txid, rawTx) => void pipeline.writer.append({ path: '/new_mempool_tx', body: Buffer.from(JSON.stringify([`0x${rawTx.toString('hex')}`])) })
        : undefined,
    }));
    ctx.node = proxy.node;
    addExpositionText(() => proxy.metricsText());
    if (realtime) addExpositionText(() => realtime.metricsText());
    const cache = responseCacheFromEnv();
    if (cache) watchResponseCache(cache);
    watchEngineMemory(store);
    if (reading) watchIngest({ status: reading.status, processor: reading.processor, pool: pipeline?.pool });
    // Answers depend on stored chain data: here the processor's committed entry; a read-only process
    // without a log to follow cannot see that cheaply, so its entries live for one second.
    const processor = reading?.processor;
    followReorgs(processor ? () => processor.reorgGeneration : undefined);
    const versions = processor
      ? () => ({ commit: processor.committedId, reorg: processor.reorgGeneration })
      : () => {
          const tick = Math.floor(Date.now() / 1000);
          return { commit: tick, reorg: tick };
        };
    ctx.dataVersion = () => versions().commit;
    const api = createApiApp(apiRoutes, ctx, [proxy.plugin, metricsPlugin(), docsPlugin(), ...(realtime ? [realtime.plugin] : [])], cache ? { cache, versions } : undefined, apiHttpOptions(config, ctx, reading?.serving?.view));
    listening.push(await listen(api, config.apiHost, config.apiPort));
    console.log(`API listening on ${config.apiHost}:${listening.at(-1)!.port}`);
  }
}

main().catch((err) => shutdown.exit(err instanceof Error ? err.message : String(err), 1));
