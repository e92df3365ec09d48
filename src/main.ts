// `npm start`: the event observer and the API in one process (or one of them, by STACKS_API_MODE).
import { configOrExit, configOrExitAsync, loadStartupConfig } from './cli/startup.ts';
import { openStore, type Store } from './storage/client.ts';
import { migrate } from './storage/migrate.ts';
import { checkStoreLayout, openDataDir } from './ingest/layout-guard.ts';
import { eventLogDir, openPipeline, type Pipeline } from './ingest/pipeline.ts';
import { startObserverThread, type ObserverThread } from './ingest/observer-thread/observer-thread.ts';
import { openFollower, type Follower } from './ingest/follow.ts';
import { installShutdown } from './shutdown.ts';
import { serveApi, type RunningApi } from './api-threads/serve-api.ts';
import type { DecodeOutcome } from './workers/decoded.ts';

// What is open, for the shutdown (which may come at any point of start-up).
const open: {
  api?: RunningApi;
  observer?: ObserverThread;
  pipeline?: Pipeline<ObserverThread>;
  follower?: Follower;
  store?: Store;
  unlock?: () => void;
} = {};

// Servers first (no new requests), then the log is flushed and processing stops, then the store.
const shutdown = installShutdown(async () => {
  await open.api?.close();
  if (open.pipeline) await open.pipeline.close();
  else await open.observer?.close();
  await open.follower?.close();
  await open.store?.client.close();
  open.unlock?.();
});

async function main(): Promise<void> {
  const startup = configOrExit(() => loadStartupConfig());
  const { config } = startup;
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
    const observer = (open.observer = await startObserverThread({ logDir: eventLogDir(config.dataDir), host: config.eventHost, port: config.eventPort, bodyLimit: config.eventBodyLimit, serving: config.servingStore }));
    observer.onFailure((message) => shutdown.exit(message, 1));
    const p = await openPipeline(store, config.dataDir, { live: true, log: observer, mempoolCleanupMs: config.mempoolCleanupMs, liveBatchMs: config.liveBatchMs, servingStore: config.servingStore });
    // Bounded by bytes: when processing lags far behind, entries are decoded again from the log.
    observer.onDecoded((id, decoded, bytes) => p.processor.handoff.offer(id, decoded as DecodeOutcome, bytes));
    open.pipeline = p;
    console.log(`event observer listening on ${config.eventHost}:${observer.port}`);
  }
  // A read-only process that follows a writer's log keeps its own serving store (and, embedded, its
  // own ClickHouse tables) up to date from that log.
  if (config.followLog) open.follower = await openFollower(store, config.dataDir, config.followLog, { servingOnly: !!config.store.url });
  // The API on STACKS_API_THREADS threads (src/api-threads).
  if (config.mode !== 'writeonly') open.api = await serveApi({ startup, store, pipeline: open.pipeline, follower: open.follower, onFailure: (message) => shutdown.exit(message, 1) });
}

main().catch((err) => shutdown.exit(err instanceof Error ? err.message : String(err), 1));
