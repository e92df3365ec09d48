// Fuzz of the API (seeded and bounded, part of `npm test`): real request URLs of the recorded
// answers, with mutated path segments, query parameters and methods, against a service holding a
// real log. No answer is a 5xx, none takes longer than the time limit, and the service keeps
// answering. (/v2/* is forwarded to a Stacks node, which tests have none of: a 502 there is right.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { SHARED, startService, waitForProcessing } from '../testing/service.ts';
import { feedFixture } from '../testing/goldens.ts';
import { eachConcurrently, rawRequest } from '../testing/http.ts';
import { EDGE_NUMBERS, PADDED_NUMBERS, seeded, type Random } from '../testing/fuzz.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const REQUESTS = 6_000;
const PARALLEL = 4;
const FIXTURE = 'fuzzed-transactions-1';

/** GET URLs of the reference's recorded answers for the fixture, under /extended. */
function seedUrls(): string[] {
  const urls = new Set<string>(['/', '/extended', '/extended/v1/openapi.json', '/metrics', '/health', '/ready', '/docs', '/analytics', '/extended/v1/ws']);
  // The routes no golden covers: analytics (issue 18).
  const A = '/extended/analytics/v1';
  for (const u of [`${A}/chain/series?metric=txs&interval=day`, `${A}/chain/series?metric=fees&interval=cycle&from=0&to=10`, `${A}/contracts/top?by=calls&limit=5`, `${A}/contracts/SP000000000000000000002Q6VF78.pox-4/series?metric=calls`, `${A}/contracts/SP000000000000000000002Q6VF78.pox-4/functions`, `${A}/tokens/ft/top?by=transfers`, `${A}/tokens/ft/SP000000000000000000002Q6VF78.bns::names/series?metric=holders`, `${A}/tokens/ft/SP000000000000000000002Q6VF78.bns::names/distribution`, `${A}/tokens/nft/SP000000000000000000002Q6VF78.bns::names/series`, `${A}/principals/SP000000000000000000002Q6VF78/flows?asset=stx`, `${A}/principals/SP000000000000000000002Q6VF78/series`, `${A}/pox/cycles`, `${A}/sql`]) urls.add(u);
  for (const line of gunzipSync(readFileSync(join(SHARED, 'goldens', `${FIXTURE}.jsonl.gz`))).toString('utf8').split('\n')) {
    if (!line) continue;
    const g = JSON.parse(line) as { url: string; method?: string };
    if ((g.method ?? 'GET') === 'GET' && g.url.startsWith('/extended')) urls.add(g.url);
  }
  for (const u of v3Urls([...urls])) urls.add(u);
  return [...urls];
}

/** /extended/v3 URLs (issue 34) for the txs, blocks and principals the recorded URLs name, with
 *  cursors of every list's shape. */
function v3Urls(recorded: string[]): string[] {
  const V3 = '/extended/v3';
  const txs = new Set(recorded.flatMap((u) => /^\/extended\/v1\/tx\/(0x[0-9a-f]{64})$/.exec(u)?.[1] ?? []));
  const principals = new Set(recorded.flatMap((u) => /^\/extended\/v1\/address\/([^/?]+)\//.exec(u)?.[1] ?? []));
  const out = [`${V3}/transactions`, `${V3}/transactions?limit=2&cursor=3:2147483647:0`, `${V3}/transactions?cursor=0:0:0`, `${V3}/mempool/transactions?cursor=1700000000:0x${'a'.repeat(64)}`];
  for (const h of ['1', '2', 'latest', `0x${'f'.repeat(64)}`]) out.push(`${V3}/blocks/${h}/transactions`, `${V3}/blocks/${h}/transactions?limit=1&cursor=${h}:0:0`);
  for (const t of [...txs].slice(0, 20)) out.push(`${V3}/transactions/${t}?include=function_args,source_code,post_conditions,result`, `${V3}/transactions/${t}/events?limit=1&cursor=1`);
  for (const p of [...principals].slice(0, 10)) {
    const t = [...txs][0] ?? `0x${'0'.repeat(64)}`;
    out.push(
      `${V3}/principals/${p}/transactions?limit=1&cursor=2:2147483647:0`, `${V3}/principals/${p}/transactions/${t}/balance-changes?cursor=1:stx`,
      `${V3}/principals/${p}/balance-changes?tx_id=${t}&cursor=2:2147483647:0:1:stx`, `${V3}/principals/${p}/balances/stx`, `${V3}/principals/${p}/balances/ft?cursor=1:${p}.t::t`,
      `${V3}/principals/${p}/balances/ft/SP000000000000000000002Q6VF78.bns::names`, `${V3}/principals/${p}/balances/nft?cursor=0x01:${p}.n::n`, `${V3}/principals/${p}/nonces`,
      `${V3}/principals/${p}/mempool/transactions`, `${V3}/principals/${p}/staking`, `${V3}/principals/${p}/staking/bonds`,
    );
  }
  out.push(`${V3}/staking/signers`, `${V3}/staking/signers/SP000000000000000000002Q6VF78/stakers?cursor=SP000000000000000000002Q6VF78`, `${V3}/staking/bonds/1/allowlist`, `${V3}/staking/bonds/1/registrations/SP000000000000000000002Q6VF78`);
  return out;
}

const SEGMENTS = [
  '%', '%zz', '%E0%A4%A', '%00', '%2F', '%FF%FE', '%F0%9F%98%80', '..', '.', '', 'x'.repeat(4_000), 'latest', '0x', `0x${'f'.repeat(64)}`, `0x${'f'.repeat(63)}`,
  'SP000000000000000000002Q6VF78', 'SP000000000000000000002Q6VF78.pox-4', 'ST000000000000000000002AMW42H.x.y', "';DROP%20TABLE%20txs;--", "a b".replace(' ', '+'), '{h:UInt32}', '$1', 'null', 'true', '-0', 'NaN', 'Infinity', '1e308', '0b11', '+5',
  ...EDGE_NUMBERS.map(String),
  ...PADDED_NUMBERS,
  // v3 cursors, well-formed but odd, and nearly well-formed.
  '0:0:0', '4294967296:2147483647:32768', '99999999999999999999:0:0', '1:2:3:4:stx', '1:', ':1', '0x:x', `0x${'1'.repeat(5)}:SP000000000000000000002Q6VF78.x::y`, '1:2:3:4:5:6', `1:0x${'a'.repeat(64)}`,
];
const PARAMS = ['limit', 'offset', 'height', 'block_height', 'block_hash', 'until_block', 'unanchored', 'cursor', 'tx_id', 'address', 'principal', 'event_limit', 'event_offset', 'type', 'from_address', 'to_address', 'order', 'sort_by', 'include_mempool', 'start_time', 'end_time', 'nonce', 'exclude_function_args', 'tenure_height', 'tenure', 'burn_block_height', 'cycle_number', 'page', 'after_block', 'metric', 'interval', 'from', 'to', 'by', 'asset', 'include'];
const METHODS = ['GET', 'GET', 'GET', 'GET', 'GET', 'HEAD', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH'];

function mutateUrl(rnd: Random, url: string): string {
  const [path, query = ''] = url.split('?');
  const segs = path.split('/');
  const params = new URLSearchParams(query);
  const rawParams: string[] = [];
  const steps = 1 + rnd.int(3);
  for (let i = 0; i < steps; i++) {
    switch (rnd.int(9)) {
      case 0:
      case 1: {
        // A parameter-like segment (a hash, a number, a principal) is replaced: the route still
        // matches and its handler sees the value.
        const values = segs.map((x, k) => (k > 2 && /^(0x[0-9a-f]+|\d+|S[PT][0-9A-Z]+.*|latest)$/i.test(x) ? k : -1)).filter((k) => k >= 0);
        if (values.length) segs[rnd.pick(values)] = rnd.pick(SEGMENTS);
        else rawParams.push(`${rnd.pick(PARAMS)}=${rnd.pick(SEGMENTS)}`);
        break;
      }
      case 2: {
        // Any segment after /extended/vN is replaced.
        if (segs.length > 3) segs[3 + rnd.int(segs.length - 3)] = rnd.pick(SEGMENTS);
        break;
      }
      case 3:
        segs.push(rnd.pick(SEGMENTS));
        break;
      case 4:
        if (segs.length > 3) segs.pop();
        break;
      case 5:
        // A parameter the route knows (or another) gets an odd value.
        params.set(rnd.chance(0.6) && [...params.keys()].length ? rnd.pick([...params.keys()]) : rnd.pick(PARAMS), rnd.pick(SEGMENTS));
        break;
      case 6:
      case 7:
        rawParams.push(`${rnd.pick(PARAMS)}=${rnd.pick(SEGMENTS)}`, `${rnd.pick(PARAMS)}=${rnd.pick(SEGMENTS)}`);
        break;
      default:
        rawParams.push(rnd.pick(['&&==&', '=', 'limit', 'limit=1&limit=2', `q=${'%'.repeat(100)}`, `${'a'.repeat(3_000)}=1`]));
    }
  }
  const q = [params.toString(), ...rawParams].filter(Boolean).join('&');
  return `${segs.join('/') || '/'}${q ? `?${q}` : ''}`;
}

test(`API fuzz: ${REQUESTS} requests with mutated paths, parameters and methods (seed ${SEED})`, { timeout: 900_000 }, async () => {
  const rnd = seeded(SEED);
  const svc = await startService();
  try {
    await feedFixture(svc.eventUrl, FIXTURE);
    await waitForProcessing(svc.apiUrl);
    const urls = seedUrls();
    assert.ok(urls.length > 300, `${urls.length} seed URLs`);
    const requests = Array.from({ length: REQUESTS }, (_, i) => {
      const url = i < urls.length ? urls[i] : mutateUrl(rnd, rnd.pick(urls));
      const method = i < urls.length ? 'GET' : rnd.pick(METHODS);
      const headers: Record<string, string> = method === 'OPTIONS' && rnd.chance(0.5) ? { origin: 'https://example.com', 'access-control-request-method': rnd.pick(METHODS) } : {};
      const body = ['POST', 'PUT', 'PATCH'].includes(method) ? rnd.pick(['{}', '{"transaction":"0x00"}', 'not json', '[]', 'x'.repeat(10_000)]) : undefined;
      if (body) headers['content-type'] = rnd.pick(['application/json', 'text/plain']);
      return { url, method, headers, body };
    });
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    await eachConcurrently(requests, PARALLEL, async (r) => {
      if (r.url.startsWith('/v2/')) return;
      try {
        const res = await rawRequest(svc.apiUrl, r.method, r.url, { headers: r.headers, body: r.body, timeoutMs: 30_000 });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) failures.push(`${r.method} ${r.url.slice(0, 200)} -> ${res.status} ${res.body.slice(0, 200)}`);
      } catch (e) {
        failures.push(`${r.method} ${r.url.slice(0, 200)} -> ${(e as Error).message}`);
      }
    });
    console.log(`answers: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} requests got a 5xx or no answer`);
    assert.ok((statuses.get(200) ?? 0) > 500 && (statuses.get(400) ?? 0) > 500 && (statuses.get(404) ?? 0) > 100, 'answers of every kind');
    assert.equal((await rawRequest(svc.apiUrl, 'GET', '/extended')).status, 200, 'the API still answers');
    assert.equal((await rawRequest(svc.eventUrl, 'GET', '/')).status, 200, 'the observer still answers');
    assert.equal(svc.child.exitCode, null);
  } finally {
    await svc.stop();
  }
});
