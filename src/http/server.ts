// The API's uWebSockets.js app: every route family registered on one app, JSON 404 for the rest.
import uWS, { type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';
import { registerRoutes, type CacheOptions, type RouteDef } from './route.ts';
import { writeJson } from './respond.ts';

export interface Listening {
  port: number;
  close(): void;
}

/** Extra registration for families that are not plain JSON routes (e.g. the node proxy). */
export type AppPlugin = (app: TemplatedApp) => void;

export function createApiApp<Ctx>(routes: readonly RouteDef<Ctx>[], ctx: Ctx, plugins: readonly AppPlugin[] = [], caching?: CacheOptions): TemplatedApp {
  const app = uWS.App();
  registerRoutes(app, routes, ctx, caching);
  for (const plugin of plugins) plugin(app);
  app.any('/*', (res, req) => {
    const method = req.getCaseSensitiveMethod().toUpperCase();
    const url = req.getUrl();
    const state = { aborted: false };
    writeJson(res, state, 404, { statusCode: 404, error: 'Not Found', message: `Route ${method}:${url} not found` });
  });
  return app;
}

export function listen(app: TemplatedApp, host: string, port: number): Promise<Listening> {
  return new Promise((resolve, reject) => {
    app.listen(host, port, (socket: us_listen_socket | false) => {
      if (!socket) return reject(new Error(`cannot listen on ${host}:${port}`));
      resolve({ port: uWS.us_socket_local_port(socket), close: () => uWS.us_listen_socket_close(socket) });
    });
  });
}
