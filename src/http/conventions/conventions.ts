// How the API serves beyond its routes, from the configuration: CORS, client caching (the tip that
// decides which settled answers are final), request metrics and the opt-in request log, and a
// store per route family whose ClickHouse reads are timed under that family.
import type { Config } from '../../config/config.ts';
import type { ApiContext } from '../context.ts';
import type { AnsweredRequest, HttpOptions, RouteDef } from '../route.ts';
import type { ServingView } from '../../serving/view.ts';
import { CorsPolicy } from '../../server/cors.ts';
import { familyLabel, observeAnswer, timedStore } from './metrics.ts';
import { requestLogger } from './request-log.ts';

/** `thread`: the API thread these options serve (its requests are counted under it). */
export function apiHttpOptions(config: Pick<Config, 'corsOrigins' | 'requestLog' | 'settledDepth'>, ctx: ApiContext, view?: ServingView, thread = 0): HttpOptions<ApiContext> {
  const log = config.requestLog ? requestLogger() : undefined;
  const contexts = new Map<string, ApiContext>();
  return {
    cors: new CorsPolicy(config.corsOrigins),
    onAnswer: (a: AnsweredRequest) => {
      observeAnswer(a, thread);
      log?.(a);
    },
    tipHeight: view ? () => view.meta.tip?.block_height : undefined,
    settledDepth: config.settledDepth,
    remoteAddress: !!config.requestLog,
    contextFor: (route: RouteDef<ApiContext>) => {
      const family = familyLabel(route.tags);
      let c = contexts.get(family);
      if (!c) contexts.set(family, (c = { ...ctx, store: timedStore(ctx.store, family) }));
      return c;
    },
  };
}
