// API series: requests by route, method and status with their latency, the response cache, and
// ClickHouse read time by route family (a store whose reads are timed, per family).
import { counter, gauge, histogram } from '../../metrics/registry.ts';
import type { AnsweredRequest } from '../route.ts';
import type { ResponseCache } from './response-cache.ts';
import type { Store } from '../../storage/client.ts';

const requests = counter({ name: 'stacks_api_requests_total', help: 'API requests answered, by route pattern, method and status.', labelNames: ['route', 'method', 'status'] });
const duration = histogram({ name: 'stacks_api_request_duration_seconds', help: 'Time from receiving an API request to writing its answer, by route pattern and method.', labelNames: ['route', 'method'] });

const threadRequests = counter({ name: 'stacks_api_thread_requests_total', help: 'API requests answered, by the API thread that answered them (0: the main thread).', labelNames: ['thread'] });

/** Counts and times one answered request (AnsweredRequest from the route layer), answered on API
 *  thread `thread`. */
export function observeAnswer(a: AnsweredRequest, thread = 0): void {
  requests.inc({ route: a.route, method: a.method, status: a.status });
  duration.observe({ route: a.route, method: a.method }, a.seconds);
  threadRequests.inc({ thread });
}

/** The response cache's lookups and size, read at each scrape. */
export function watchResponseCache(cache: ResponseCache): void {
  counter({
    name: 'stacks_api_response_cache_lookups_total',
    help: 'Response cache lookups by result (hit, miss).',
    labelNames: ['result'],
    collect() {
      this.reset();
      this.inc({ result: 'hit' }, cache.hits);
      this.inc({ result: 'miss' }, cache.misses);
    },
  });
  gauge({
    name: 'stacks_api_response_cache_hit_ratio',
    help: 'Share of response cache lookups answered from the cache since the start (0 before any lookup).',
    collect() {
      const total = cache.hits + cache.misses;
      this.set(total ? cache.hits / total : 0);
    },
  });
  gauge({
    name: 'stacks_api_response_cache_bytes',
    help: 'Estimated bytes held by the response cache.',
    collect() {
      this.set(cache.size.bytes);
    },
  });
  gauge({
    name: 'stacks_api_response_cache_entries',
    help: 'Answers held by the response cache.',
    collect() {
      this.set(cache.size.entries);
    },
  });
}

const queryTime = histogram({ name: 'stacks_clickhouse_query_duration_seconds', help: 'ClickHouse read time of API queries, by route family.', labelNames: ['family', 'result'] });

/** The store with its reads timed under `family` (writes and the client are the store's own). */
export function timedStore(store: Store, family: string): Store {
  const ok = queryTime.labels({ family, result: 'ok' });
  const failed = queryTime.labels({ family, result: 'error' });
  return {
    ...store,
    read: async <T>(query: string, params: Record<string, unknown>): Promise<T[]> => {
      const t0 = performance.now();
      try {
        const rows = await store.read<T>(query, params);
        ok.observe((performance.now() - t0) / 1000);
        return rows;
      } catch (e) {
        failed.observe((performance.now() - t0) / 1000);
        throw e;
      }
    },
  };
}

/** A family name for metric labels: the route's first tag, lower-case with underscores. */
export function familyLabel(tags: readonly string[] | undefined): string {
  return (tags?.[0] ?? 'other').toLowerCase().replace(/[^a-z0-9]+/g, '_');
}
