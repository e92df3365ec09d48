// The API's app: every route family, its plugins (the node proxy), CORS preflight and a JSON 404.
import type { TemplatedApp } from 'uWebSockets.js';
import { registerRoutes, type CacheOptions, type RouteDef } from './route.ts';
import { CORS_HEADERS, writeReply, type ResponseState } from '../server/respond.ts';
import { answerPreflight, newApp, type AppPlugin } from '../server/server.ts';

export function createApiApp<Ctx>(routes: readonly RouteDef<Ctx>[], ctx: Ctx, plugins: readonly AppPlugin[] = [], caching?: CacheOptions): TemplatedApp {
  const app = newApp();
  registerRoutes(app, routes, ctx, caching);
  for (const plugin of plugins) plugin(app);
  app.options('/*', answerPreflight);
  app.any('/*', (res, req) => {
    const method = req.getCaseSensitiveMethod().toUpperCase();
    const url = req.getUrl();
    const state: ResponseState = { aborted: false, head: method === 'HEAD' };
    writeReply(res, state, { status: 404, body: { statusCode: 404, error: 'Not Found', message: `Route ${method}:${url} not found` } }, CORS_HEADERS);
  });
  return app;
}
