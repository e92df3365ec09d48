// `npm start`: the event observer and the API in one process (or one of them, by STACKS_API_MODE).
import { loadConfig, ConfigError } from './config/config.ts';
import { openStore } from './storage/client.ts';
import { migrate } from './storage/migrate.ts';
import { lockDataDir } from './ingest/data-lock.ts';
import { openPipeline } from './ingest/pipeline.ts';
import { createObserverApp } from './ingest/observer.ts';
import { createApiApp, listen, type Listening } from './http/server.ts';
import { apiRoutes } from './http/routes.ts';
import type { ApiContext } from './http/context.ts';
import { createProxyPlugin, loadProxyConfig, type ProxyPlugin } from './http/proxy/index.ts';
import { responseCacheFromEnv } from './http/response-cache.ts';

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
  if (config.mode !== 'readonly') await migrate(store);

  const listening: Listening[] = [];
  const pipeline = config.mode !== 'readonly' ? await openPipeline(store, config.dataDir, { live: true }) : undefined;
  if (pipeline) {
    const observer = createObserverApp({
      writer: pipeline.writer,
      bodyLimit: config.eventBodyLimit,
      check: async (path, body) => {
        const out = await pipeline.checkPool.decode(path, body);
        return out.ok ? { ok: true, decoded: out } : { ok: false, reason: out.reason };
      },
      onAccepted: (id, _path, decoded) => {
        // Bounded: when processing lags far behind, entries are decoded again from the log instead.
        if (decoded && pipeline.processor.handoff.size < 10_000) pipeline.processor.handoff.set(id, decoded as never);
      },
    });
    listening.push(await listen(observer, config.eventHost, config.eventPort));
    console.log(`event observer listening on ${config.eventHost}:${listening.at(-1)!.port}`);
  }
  let proxy: ProxyPlugin | undefined;
  if (config.mode !== 'writeonly') {
    const ctx: ApiContext = { store, config, ingest: pipeline?.status };
    proxy = createProxyPlugin(proxyConfig, {
      // A broadcast the node accepted is in its mempool: record it as the node would announce it,
      // so it shows in the mempool endpoints at once (the node's own announcement then changes nothing).
      onBroadcastAccepted: pipeline
        ? (_txid, rawTx) => void pipeline.writer.append({ path: '/new_mempool_tx', body: Buffer.from(JSON.stringify([`0x${rawTx.toString('hex')}`])) })
        : undefined,
    });
    const cache = responseCacheFromEnv();
    // Answers depend on stored chain data: here the processor's committed entry; a read-only process
    // cannot see that cheaply, so its entries live for one second.
    const version = pipeline ? () => pipeline.processor.committedId : () => Math.floor(Date.now() / 1000);
    const api = createApiApp(apiRoutes, ctx, [proxy.plugin], cache ? { cache, version } : undefined);
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
