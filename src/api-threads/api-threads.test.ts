// The API on 2 threads answers as on 1: every recorded request of a fixture (every route family the
// reference was asked about, GET and POST) and the service's own routes, asked on new connections
// so that both threads answer, with the same status, headers (ETag, Cache-Control, CORS) and body
// as a 1-thread service on the same data; one request per family is asked until each thread has
// answered it. /metrics is one set of series counting every thread's requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { SHARED, startService, waitForProcessing } from '../testing/service.ts';
import { feedFixture } from '../testing/goldens.ts';
import { eachConcurrently, rawRequest, type RawResponse } from '../testing/http.ts';
import { threadRequests } from '../testing/api-threads.ts';
import { servedUrls } from '../testing/compare-services.ts';
import { feedRows, fixtureRows } from '../testing/realtime/feed.ts';

const FIXTURE = 'mainnet-reorg-scenario2';
const TOKEN = 'api-threads-test-token';
const ENV = { STACKS_API_ANALYTICS_SQL_TOKEN: TOKEN, STACKS_API_REQUEST_LOG: 'on' };

interface Ask {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Every recorded request of the fixture, once. */
function recordedAsks(): Ask[] {
  const text = gunzipSync(readFileSync(join(SHARED, 'goldens', `${FIXTURE}.jsonl.gz`))).toString('utf8');
  const asks = new Map<string, Ask>();
  for (const line of text.split('\n').filter(Boolean)) {
    const g = JSON.parse(line) as { url: string; method?: string; request_body?: unknown };
    const method = g.method ?? 'GET';
    const body = g.request_body === undefined ? undefined : JSON.stringify(g.request_body);
    asks.set(`${method} ${g.url} ${body ?? ''}`, { method, path: g.url, ...(body ? { headers: { 'content-type': 'application/json' }, body } : {}) });
  }
  return [...asks.values()];
}

const json = { 'content-type': 'application/json' };
/** Beyond the recordings: the service's own routes, HEAD, preflight, errors, the proxy, analytics. */
const OWN_ASKS: Ask[] = [
  { method: 'GET', path: '/extended' },
  { method: 'GET', path: '/ready' },
  { method: 'GET', path: '/health' },
  { method: 'HEAD', path: '/extended/v1/block?limit=2' },
  { method: 'OPTIONS', path: '/extended/v1/tx', headers: { origin: 'https://a.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-a' } },
  { method: 'GET', path: '/extended/v1/tx/zz' },
  { method: 'GET', path: '/extended/v1/no-such-route' },
  { method: 'GET', path: '/extended/v1/openapi.json' },
  { method: 'GET', path: '/docs' },
  { method: 'GET', path: '/analytics' },
  { method: 'GET', path: '/extended/analytics/v1/chain/series?metric=txs&interval=day' },
  { method: 'POST', path: '/extended/analytics/v1/sql', headers: { ...json, authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ query: 'SELECT count() AS n FROM sql_blocks' }) },
  { method: 'POST', path: '/extended/analytics/v1/sql', headers: json, body: JSON.stringify({ query: 'SELECT 1' }) },
  { method: 'GET', path: '/v2/info' },
  { method: 'POST', path: '/v2/transactions', headers: { 'content-type': 'application/octet-stream' }, body: '00' },
  { method: 'GET', path: '/v2/prices/namespaces/btc' },
];

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: unknown;
}

/** What must be equal: status, headers but the connection's, and the body (JSON parsed) without
 *  what is a clock's (the process's uptime, a query's time, and so that answer's length and tag). */
function answerOf(r: RawResponse): Answer {
  const { date: _d, connection: _c, 'keep-alive': _k, ...headers } = r.headers;
  let body: unknown = r.body;
  try {
    body = JSON.parse(r.body);
  } catch {
    /* not JSON */
  }
  if (body && typeof body === 'object' && ('uptime_seconds' in body || 'elapsed_ms' in body)) {
    const { uptime_seconds: _u, elapsed_ms: _e, ...rest } = body as Record<string, unknown>;
    body = rest;
    delete headers['content-length'];
    delete headers.etag;
  }
  return { status: r.status, headers, body };
}

async function ask(base: string, a: Ask): Promise<Answer> {
  try {
    return answerOf(await rawRequest(base, a.method, a.path, { headers: a.headers, body: a.body, timeoutMs: 30_000 }));
  } catch (e) {
    throw new Error(`${a.method} ${a.path}: ${(e as Error).message}`, { cause: e });
  }
}

/** A route family: the method and the path's first three segments. */
const familyOf = (a: Ask) => `${a.method} ${a.path.split('?')[0].split('/').slice(0, 4).join('/')}`;

test('2 API threads answer every route family as 1 thread does, from each thread', { timeout: 900_000 }, async () => {
  const one = await startService({ env: { ...ENV, STACKS_API_THREADS: '1' } });
  const asks = [...recordedAsks(), ...OWN_ASKS];
  const expected = new Map<Ask, Answer>();
  try {
    await feedFixture(one.eventUrl, FIXTURE);
    await waitForProcessing(one.apiUrl);
    await eachConcurrently(asks, 8, async (a) => void expected.set(a, await ask(one.apiUrl, a)));
  } finally {
    await one.stop();
  }
  // A tag the client holds: 304 from either thread.
  const tagged = asks.find((a) => a.method === 'GET' && expected.get(a)!.headers.etag)!;
  const conditional: Ask = { ...tagged, headers: { 'if-none-match': String(expected.get(tagged)!.headers.etag) } };

  // The same data, served by 2 threads.
  const two = await startService({ dataDir: one.dataDir, env: { ...ENV, STACKS_API_THREADS: '2' } });
  try {
    await waitForProcessing(two.apiUrl);
    const same = async (a: Ask, want: Answer) => assert.deepEqual(await ask(two.apiUrl, a), want, `${a.method} ${a.path}`);
    // Each family's first request, until both threads have answered it.
    const firstOfFamily = new Map<string, Ask>();
    for (const a of asks) if (!firstOfFamily.has(familyOf(a)) && a.path !== '/health') firstOfFamily.set(familyOf(a), a);
    for (const a of firstOfFamily.values()) {
      const answered = new Set<number>();
      for (let tries = 0; answered.size < 2; tries++) {
        assert.ok(tries < 40, `${a.method} ${a.path}: answered by threads ${[...answered].join(', ')} only`);
        const before = await threadRequests(two.apiUrl);
        await same(a, expected.get(a)!);
        const after = await threadRequests(two.apiUrl);
        const thread = after.findIndex((n, i) => n > (before[i] ?? 0));
        if (thread >= 0) answered.add(thread);
        // What the request metrics do not count (preflight, the proxy, static pages): asked on
        // 10 connections, both threads answer it but for a 1 in 512 chance.
        else if (tries >= 9) break;
      }
    }
    // Every request on a new connection, 8 at a time (the kernel spreads them over both threads;
    // each family was asked of both above).
    await eachConcurrently(asks, 8, (a) => same(a, expected.get(a)!));
    const notModified = await ask(two.apiUrl, conditional);
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers.etag, expected.get(tagged)!.headers.etag);
    // The request log has both threads' lines.
    const [main, worker] = await threadRequests(two.apiUrl);
    assert.ok(main > 0 && worker > 0, `both threads answered: ${main}, ${worker}`);
    const logged = two.output().split('\n').filter((l) => /^\S+Z \S+ (GET|POST|HEAD|OPTIONS) \//.test(l)).length;
    assert.ok(logged >= main + worker - 5, `${logged} request log lines for ${main + worker} answers`);
  } finally {
    await two.stop();
  }
});

test('fed live (a reorg, microblocks, mempool changes), both threads of a 2-thread service answer alike after each part', { timeout: 900_000 }, async () => {
  const svc = await startService({ env: { STACKS_API_THREADS: '2' } });
  try {
    const rows = await fixtureRows(FIXTURE);
    const urls = servedUrls(FIXTURE);
    const half = Math.floor(rows.length / 2);
    for (const part of [rows.slice(0, half), rows.slice(half)]) {
      await feedRows(svc.eventUrl, part);
      await waitForProcessing(svc.apiUrl);
      const before = await threadRequests(svc.apiUrl);
      // Each URL on 4 new connections: both threads' answers are compared for most of them.
      await eachConcurrently(urls, 8, async (url) => {
        const first = await ask(svc.apiUrl, { method: 'GET', path: url });
        for (let i = 0; i < 3; i++) assert.deepEqual(await ask(svc.apiUrl, { method: 'GET', path: url }), first, url);
      });
      const after = await threadRequests(svc.apiUrl);
      assert.ok(after.every((n, i) => n - (before[i] ?? 0) > urls.length / 2), `both threads answered: ${before.join(', ')} -> ${after.join(', ')}`);
    }
  } finally {
    await svc.stop();
  }
});

/** Sums of a series' samples in exposition text (those with all of `labels`). */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const m of text.matchAll(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/gm)) {
    if (m[1] !== name) continue;
    const l = m[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`))) sum += Number(m[3]);
  }
  return sum;
}

test('/metrics counts every API thread\'s requests, as one set of series, from either thread', { timeout: 300_000 }, async () => {
  const svc = await startService({ env: { STACKS_API_THREADS: '2' } });
  try {
    const route = { route: '/extended/v1/block', method: 'GET', status: '200' };
    const before = (await rawRequest(svc.apiUrl, 'GET', '/metrics')).body;
    const threadsBefore = await threadRequests(svc.apiUrl);
    const n = 60;
    for (let i = 0; i < n; i++) assert.equal((await rawRequest(svc.apiUrl, 'GET', '/extended/v1/block?limit=1')).status, 200);
    // Several scrapes, each on a new connection (so on either thread), show the same counts.
    for (let scrape = 0; scrape < 6; scrape++) {
      const text = (await rawRequest(svc.apiUrl, 'GET', '/metrics')).body;
      const types = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]);
      assert.equal(new Set(types).size, types.length, 'each series declared once');
      assert.equal(valueOf(text, 'stacks_api_requests_total', route) - valueOf(before, 'stacks_api_requests_total', route), n);
      assert.equal(valueOf(text, 'stacks_api_request_duration_seconds_count', { route: route.route }) - valueOf(before, 'stacks_api_request_duration_seconds_count', { route: route.route }), n);
      // Process-wide values are the process's once, not once per thread.
      assert.equal(text.match(/^process_start_time_seconds /gm)?.length, 1);
      assert.ok(valueOf(text, 'stacks_ingest_received_log_id') >= 0 && /^stacks_ingest_received_log_id \d+$/m.test(text));
    }
    const threadsAfter = await threadRequests(svc.apiUrl);
    const answered = threadsAfter.map((v, i) => v - (threadsBefore[i] ?? 0));
    assert.equal(answered.length, 2);
    assert.equal(answered[0] + answered[1], n);
    assert.ok(answered.every((v) => v > 0), `both threads answered: ${answered.join(', ')}`);
  } finally {
    await svc.stop();
  }
});
