// The API's app: every route family, its plugins (the node proxy), CORS preflight and a JSON 404.
import type { TemplatedApp } from 'uWebSockets.js';
import { registerRoutes, type CacheOptions, type HttpOptions, type RouteDef } from './route.ts';
import { writeReply, type ResponseState } from '../server/respond.ts';
import { ANY_ORIGIN } from '../server/cors.ts';
import { newApp, preflightHandler, type AppPlugin } from '../server/server.ts';
import { remoteAddressOf } from './request.ts';

/** `app`: where to register (a new app unless given; an API thread passes one whose handlers first
 *  catch up with the main thread, src/api-threads/synced-app.ts). */
export function createApiApp<Ctx>(routes: readonly RouteDef<Ctx>[], ctx: Ctx, plugins: readonly AppPlugin[] = [], caching?: CacheOptions, http: HttpOptions<Ctx> = {}, app: TemplatedApp = newApp()): TemplatedApp {
  const cors = http.cors ?? ANY_ORIGIN;
  registerRoutes(app, routes, ctx, caching, http);
  for (const plugin of plugins) plugin(app);
  app.options('/*', preflightHandler(cors));
  app.any('/*', (res, req) => {
    const started = performance.now();
    const method = req.getCaseSensitiveMethod().toUpperCase();
    const url = req.getUrl();
    const query = req.getQuery();
    const remoteAddress = http.remoteAddress ? remoteAddressOf(res) : '';
    const state: ResponseState = { aborted: false, head: method === 'HEAD' };
    const bytes = writeReply(res, state, { status: 404, body: { statusCode: 404, error: 'Not Found', message: `Route ${method}:${url} not found` } }, cors.headers(req.getHeader('origin')));
    http.onAnswer?.({ route: '(unmatched)', method, url: query ? `${url}?${query}` : url, status: 404, bytes, seconds: (performance.now() - started) / 1000, cached: false, remoteAddress });
  });
  return app;
}
