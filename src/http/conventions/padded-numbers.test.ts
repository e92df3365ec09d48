// Numbers padded by whitespace in query strings, on every GET route of a service holding a recorded
// reorg: the reference (Fastify's ajv, coerceTypes) reads ` 1`, `1 ` and `\t1` as 1, so a declared
// numeric parameter answers exactly as the unpadded number does; a parameter the route does not
// declare is ignored, as the reference ignores it — never handed to the engine (a 500 once, for
// `GET /extended/v2/blocks?tenure=%201`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { SHARED, startService, waitForProcessing } from '../../testing/service.ts';
import { feedFixture } from '../../testing/goldens.ts';
import { rawRequest } from '../../testing/http.ts';
import { PADDED_NUMBERS } from '../../testing/fuzz.ts';
import { apiRoutes } from '../routes.ts';
import { PathMatcher } from '../openapi/match.ts';
import type { JsonSchema } from '../route.ts';

const FIXTURE = 'mainnet-reorg-scenario2';
/** Names some route reads as a number, sent where a route does not declare them. */
const UNDECLARED = ['tenure', 'tenure_height', 'height', 'block_height', 'burn_block_height', 'cycle_number', 'page', 'after_block', 'event_limit', 'event_offset', 'nonce', 'start_time', 'end_time', 'from', 'to', 'limit', 'offset'];

const isNumeric = (s: JsonSchema | undefined): boolean =>
  !!s && (s.type === 'integer' || s.type === 'number' || (Array.isArray(s.anyOf) && (s.anyOf as JsonSchema[]).some(isNumeric)));

/** One recorded GET URL per route pattern (`:x` as `{x}`), from the fixture's reference answers. */
function sampleUrls(): Map<string, string> {
  const patterns = new Map(apiRoutes.filter((r) => r.method === 'get').map((r) => [r.path.replace(/:(\w+)/g, '{$1}'), r.path]));
  const matcher = new PathMatcher(patterns.keys());
  const out = new Map<string, string>();
  for (const line of gunzipSync(readFileSync(join(SHARED, 'goldens', `${FIXTURE}.jsonl.gz`))).toString('utf8').split('\n')) {
    if (!line) continue;
    const g = JSON.parse(line) as { url: string; method?: string };
    const pattern = (g.method ?? 'GET') === 'GET' ? matcher.match(g.url) : undefined;
    if (pattern && !out.has(patterns.get(pattern)!)) out.set(patterns.get(pattern)!, g.url);
  }
  return out;
}

const withParam = (url: string, name: string, value: string) => `${url}${url.includes('?') ? '&' : '?'}${name}=${value}`;

test('whitespace-padded numbers in every route\'s query: read as numbers where declared, ignored where not, never a 5xx', { timeout: 600_000 }, async () => {
  const svc = await startService();
  try {
    await feedFixture(svc.eventUrl, FIXTURE);
    await waitForProcessing(svc.apiUrl);
    const get = (path: string) => rawRequest(svc.apiUrl, 'GET', path, { timeoutMs: 30_000 });

    // The request that answered 500: `tenure` is no parameter of /extended/v2/blocks.
    const plain = await get('/extended/v2/blocks');
    const padded = await get('/extended/v2/blocks?tenure=%201');
    assert.equal(padded.status, 200, padded.body);
    assert.deepEqual(JSON.parse(padded.body), JSON.parse(plain.body));

    const samples = sampleUrls();
    assert.ok(samples.size > 40, `${samples.size} routes with a recorded URL`);
    const problems: string[] = [];
    let compared = 0;
    for (const route of apiRoutes.filter((r) => r.method === 'get' && samples.has(r.path))) {
      const url = samples.get(route.path)!;
      const declared = Object.entries(((route.query as JsonSchema | undefined)?.properties ?? {}) as Record<string, JsonSchema>);
      for (const [name, schema] of declared.filter(([, s]) => isNumeric(s))) {
        const base = withParam(url, name, '1');
        const expected = await get(base);
        for (const value of PADDED_NUMBERS) {
          const r = await get(withParam(url, name, value));
          compared++;
          if (r.status !== expected.status || r.body !== expected.body) problems.push(`${route.path} ${name}=${value}: ${r.status} ${r.body.slice(0, 120)} (unpadded: ${expected.status})`);
        }
        void schema;
      }
      const names = UNDECLARED.filter((n) => !declared.some(([d]) => d === n));
      for (const value of PADDED_NUMBERS) {
        const r = await get(names.reduce((u, n) => withParam(u, n, value), url));
        if (r.status >= 500) problems.push(`${route.path} undeclared=${value}: ${r.status} ${r.body.slice(0, 200)}`);
      }
    }
    assert.ok(compared > 100, `${compared} padded numbers compared`);
    assert.deepEqual(problems, []);
  } finally {
    await svc.stop();
  }
});
