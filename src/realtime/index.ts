// Real-time subscriptions (Socket.IO at the API root, JSON-RPC over WebSocket at /extended/v1/ws):
// wiring surface for src/main.ts. Needs the serving store (its journal and documents).
import type { TemplatedApp } from 'uWebSockets.js';
import type { RouteDef } from '../http/route.ts';
import type { ApiContext } from '../http/context.ts';
import type { AppPlugin } from '../server/server.ts';
import type { RealtimeConfig } from './config.ts';
import { Hub } from './hub.ts';
import { RealtimeMetrics } from './metrics.ts';
import { restRenderer } from './render.ts';
import { registerJsonRpc } from './json-rpc.ts';
import { attachSocketIo } from './socket-io.ts';

export interface Realtime {
  plugin: AppPlugin;
  metricsText(): string;
  /** Connected clients, both channels. */
  clients(): number;
  close(): Promise<void>;
}

/** `serving`: the process's serving store (undefined: no real-time channels). Payloads are rendered
 *  by `routes` with `ctx`, exactly as GET answers them. */
export function createRealtime(routes: readonly RouteDef<ApiContext>[], ctx: ApiContext, serving: ApiContext['serving'], config: RealtimeConfig): Realtime | undefined {
  if (!serving) return undefined;
  const metrics = new RealtimeMetrics();
  const hub = new Hub(serving, restRenderer(routes, ctx), config, metrics);
  let io: ReturnType<typeof attachSocketIo> | undefined;
  return {
    plugin: (app: TemplatedApp) => {
      registerJsonRpc(app, hub, config);
      io = attachSocketIo(app, hub, config);
    },
    metricsText: () => metrics.text(),
    clients: () => [...metrics.connected.values()].reduce((a, b) => a + b, 0),
    async close() {
      hub.close();
      await new Promise<void>((resolve) => (io ? void io.close(() => resolve()) : resolve()));
    },
  };
}
