// `npm start`: the event observer and the API in one process (or one of them, by STACKS_API_MODE).
import { loadConfig, ConfigError } from './config/config.ts';
import { openStore } from './storage/client.ts';
import { migrate } from './storage/migrate.ts';
import { lockDataDir } from './ingest/data-lock.ts';
import { eventLogDir, openPipeline, type Pipeline } from './ingest/pipeline.ts';
import { startObserverThread, type ObserverThread } from './ingest/observer-thread/observer-thread.ts';
import { createApiApp, listen, type Listening } from './http/server.ts';
import { apiRoutes } from './http/routes.ts';
import type { ApiContext } from './http/context.ts';
import { createProxyPlugin, loadProxyConfig, type ProxyPlugin } from './http/proxy/index.ts';
import { responseCacheFromEnv } from './http/response-cache.ts';
import { followReorgs } from './http/known-canonical.ts';
import { openFollower, type Follower } from './ingest/follow.ts';

async function main(): Promise<void> {
  let config;
  let proxyConfig;
  try {
    config = loadConfig();
    proxyConfig = loadProxyConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`configuration error: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  const unlock = config.store.url ? () => {} : lockDataDir(config.dataDir);
  const store = await openStore(config.store, config.dataDir);
  // A follower with its own embedded store builds its own tables.
  if (config.mode !== 'readonly' || (config.followLog && !config.store.url)) await migrate(store);

  const listening: Listening[] = [];
  let pipeline: Pipeline<ObserverThread> | undefined;
  if (config.mode !== 'readonly') {
    // The observer runs on its own thread with the log writer: the node's ack never waits for
    // processing or API work on this one.
    const observer = await startObserverThread({ logDir: eventLogDir(config.dataDir), host: config.eventHost, port: config.eventPort, bodyLimit: config.eventBodyLimit });
    const p = await openPipeline(store, config.dataDir, { live: true, log: observer, mempoolCleanupMs: config.mempoolCleanupMs, servingStore: config.servingStore });
    observer.onDecoded((id, decoded) => {
      // Bounded: when processing lags far behind, entries are decoded again from the log instead.
      // Only without a serving store: the observer's check does not render its documents.
      if (!p.serving && p.processor.handoff.size < 10_000) p.processor.handoff.set(id, decoded as never);
    });
    pipeline = p;
    console.log(`event observer listening on ${config.eventHost}:${observer.port}`);
  }
  // A read-only process that follows a writer's log keeps its own serving store (and, embedded, its
  // own ClickHouse tables) up to date from that log.
  const follower: Follower | undefined = config.followLog ? await openFollower(store, config.dataDir, config.followLog, { servingOnly: !!config.store.url }) : undefined;
  const reading = pipeline ?? follower;
  let proxy: ProxyPlugin | undefined;
  if (config.mode !== 'writeonly') {
    const ctx: ApiContext = { store, config, ingest: reading?.status, serving: config.servingReads ? reading?.serving : undefined };
    proxy = createProxyPlugin(proxyConfig, {
      // A broadcast the node accepted is in its mempool: record it as the node would announce it,
      // so it shows in the mempool endpoints at once (the node's own announcement then changes nothing).
      onBroadcastAccepted: pipeline
        ? (_txid, rawTx) => void pipeline.writer.append({ path: '/new_mempool_tx', body: Buffer.from(JSON.stringify([`0x${rawTx.toString('hex')}`])) })
        : undefined,
    });
    ctx.node = proxy.node;
    const cache = responseCacheFromEnv();
    // Answers depend on stored chain data: here the processor's committed entry; a read-only process
    // cannot see that cheaply, so its entries live for one second.
    const processor = reading?.processor;
    followReorgs(processor ? () => processor.reorgGeneration : undefined);
    const versions = processor
      ? () => ({ commit: processor.committedId, reorg: processor.reorgGeneration })
      : () => {
          const tick = Math.floor(Date.now() / 1000);
          return { commit: tick, reorg: tick };
        };
    const api = createApiApp(apiRoutes, ctx, [proxy.plugin], cache ? { cache, versions } : undefined);
    listening.push(await listen(api, config.apiHost, config.apiPort));
    console.log(`API listening on ${config.apiHost}:${listening.at(-1)!.port}`);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: shutting down`);
    for (const l of listening) l.close();
    await proxy?.close();
    await pipeline?.close();
    await follower?.close();
    await store.client.close();
    unlock();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error('fatal:', err instanceof Error ? err.message : err);
  process.exit(1);
});
