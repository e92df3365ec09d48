// The API as one thread serves it — the main thread and each API worker thread build it alike, so
// every thread answers every route the same way: the JSON routes with the response cache and
// conventions (CORS, ETags, request metrics, the request log), the node proxy, /metrics, /docs and
// the real-time channels.
import type { TemplatedApp } from 'uWebSockets.js';
import type { Config } from '../config/config.ts';
import type { ProxyConfig } from '../http/proxy/config.ts';
import type { RealtimeConfig } from '../realtime/config.ts';
import type { ApiContext } from '../http/context.ts';
import type { RouteDef } from '../http/route.ts';
import { createApiApp } from '../http/app.ts';
import { apiHttpOptions } from '../http/conventions/conventions.ts';
import { ResponseCache, type CacheVersions } from '../http/conventions/response-cache.ts';
import { createProxyPlugin, type ProxyLogger } from '../http/proxy/index.ts';
import { followReorgs } from '../http/reads/known-canonical.ts';
import { docsPlugin } from '../http/docs/docs.ts';
import { createRealtime } from '../realtime/index.ts';
import { metricsPlugin } from '../server/metrics.ts';
import { addExpositionText, gauge } from '../metrics/registry.ts';
import { watchResponseCache } from '../http/conventions/metrics.ts';
import { readResponseCacheMb } from '../config/tuning.ts';
import { newApp } from '../server/server.ts';

export interface ThreadApiOptions {
  /** 0: the main thread; 1…threads-1: API worker threads. */
  thread: number;
  threads: number;
  routes: readonly RouteDef<ApiContext>[];
  /** The handlers' context (its `node` and `dataVersion` are set here). */
  ctx: ApiContext;
  /** The serving store the real-time channels follow (whether or not reads use it). */
  serving?: ApiContext['serving'];
  config: Config;
  proxy: ProxyConfig;
  realtime: RealtimeConfig;
  /** The data versions answers are cached under. */
  versions: () => CacheVersions;
  /** The processor's reorg generation (undefined: this process does not ingest). */
  reorgGeneration?: () => number;
  /** Where the node proxy logs (default the console). */
  proxyLog?: ProxyLogger;
  /** A broadcast a node accepted through the proxy (recorded in the event log, see main). */
  onBroadcastAccepted?: (txid: string, rawTx: Buffer) => void;
  /** What GET /metrics answers: the process's series. */
  processMetrics: () => Promise<string>;
  /** The app to register on (an API worker thread's synced app); a new one if absent. */
  app?: TemplatedApp;
}

export interface ThreadApi {
  app: TemplatedApp;
  close(): Promise<void>;
}

/** The response cache's budget (STACKS_API_RESPONSE_CACHE_MB) is the process's: each thread keeps its share. */
function threadCache(threads: number): ResponseCache | undefined {
  const mb = readResponseCacheMb(process.env);
  return mb > 0 ? new ResponseCache(Math.floor((mb * 1024 * 1024) / threads)) : undefined;
}

export function threadApi(o: ThreadApiOptions): ThreadApi {
  const { ctx } = o;
  // Subscriptions follow the serving store's message journal (src/realtime).
  const realtime = createRealtime(o.routes, ctx, o.serving, o.realtime);
  const proxy = createProxyPlugin(o.proxy, {
    // /metrics shows the proxy's series with everyone else's (src/metrics).
    metricsPath: false,
    onBroadcastAccepted: o.onBroadcastAccepted,
    ...(o.proxyLog ? { log: o.proxyLog } : {}),
  });
  ctx.node = proxy.node;
  addExpositionText(() => proxy.metricsText());
  if (realtime) {
    addExpositionText(() => realtime.metricsText());
    gauge({
      name: 'stacks_api_thread_realtime_clients',
      help: 'Real-time clients connected to each API thread (0: the main thread).',
      labelNames: ['thread'],
      collect() {
        this.set({ thread: o.thread }, realtime.clients());
      },
    });
  }
  const cache = threadCache(o.threads);
  if (cache) watchResponseCache(cache);
  // Answers depend on stored chain data: the processor's committed entry (see main); a read-only
  // process without a log to follow cannot see that cheaply, so its entries live for one second.
  followReorgs(o.reorgGeneration);
  ctx.dataVersion = () => o.versions().commit;
  const plugins = [proxy.plugin, metricsPlugin('/metrics', o.processMetrics), docsPlugin(), ...(realtime ? [realtime.plugin] : [])];
  const app = createApiApp(o.routes, ctx, plugins, cache ? { cache, versions: o.versions } : undefined, apiHttpOptions(o.config, ctx, o.serving?.view, o.thread), o.app ?? newApp());
  return {
    app,
    async close() {
      await realtime?.close();
      await proxy.close();
    },
  };
}

/** Versions of a process without a processor: a clock tick, so cached answers live a second. */
export function tickVersions(): CacheVersions {
  const tick = Math.floor(Date.now() / 1000);
  return { commit: tick, reorg: tick };
}
