// The generated client (client/: openapi-typescript types, openapi-fetch) against the running
// service fed a recorded log: one typed call per route family, then every recorded request of the
// fixture through the client, each answer checked against the document the client was made from,
// so a schema that lies fails here (and, with response checks on, in the service itself).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createApiClient, type ApiClient } from '../../../client/src/index.ts';
import { fedService } from '../../testing/goldens.ts';
import { SHARED, type RunningService } from '../../testing/service.ts';
import { readGoldens } from './examples.ts';
import { DocumentedAnswers, PathMatcher } from './match.ts';
import { apiOpenApi } from '../routes.ts';
import { fixtureNetwork } from '../../testing/rosetta-mesh-check.ts';

const FIXTURE = 'fuzzed-transactions-1';
let svc: RunningService;
let api: ApiClient;

before(async () => {
  // With the fixture's chain id, as the goldens were recorded (Rosetta names the network).
  svc = await fedService(FIXTURE, { STACKS_CHAIN_ID: fixtureNetwork(FIXTURE).chainId });
  api = createApiClient({ baseUrl: svc.apiUrl });
});

after(async () => {
  await svc?.stop();
});

interface Doc {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  components: unknown;
}

const doc = apiOpenApi() as unknown as Doc;
const answers = new DocumentedAnswers(doc);

function assertDocumented(path: string, method: string, status: number, body: unknown): void {
  const check = answers.validator(path, method, status);
  assert.ok(check, `${method} ${path}: status ${status} is documented`);
  assert.ok(check(body), `${method} ${path} ${status}: ${answers.errorsText(check)}`);
}

test('one typed call per family through the generated client', async () => {
  const txs = await api.GET('/extended/v1/tx', { params: { query: { limit: 5 } } });
  assert.equal(txs.response.status, 200);
  const tx = txs.data!.results[0];
  const one = await api.GET('/extended/v1/tx/{tx_id}', { params: { path: { tx_id: tx.tx_id } } });
  assert.equal(one.response.status, 200);
  assert.equal(one.data!.tx_id, tx.tx_id);
  assert.ok(one.response.headers.get('etag'), 'answers carry an ETag');

  const blocks = await api.GET('/extended/v2/blocks', { params: { query: { limit: 2 } } });
  assert.equal(blocks.response.status, 200);
  const height = blocks.data!.results[0].height;
  const block = await api.GET('/extended/v2/blocks/{height_or_hash}', { params: { path: { height_or_hash: String(height) } } });
  assert.equal(block.data!.height, height);
  const burn = await api.GET('/extended/v2/burn-blocks', {});
  assert.equal(burn.response.status, 200);

  const sender = tx.sender_address;
  const balances = await api.GET('/extended/v1/address/{principal}/balances', { params: { path: { principal: sender } } });
  assert.equal(typeof balances.data!.stx.balance, 'string');
  const seed = await api.GET('/extended/v1/address/{principal}/{tx_id}/with_transfers', { params: { path: { principal: sender, tx_id: tx.tx_id } } });
  assert.ok(seed.response.status === 200 || seed.response.status === 404, `with_transfers answered ${seed.response.status}`);
  const v2 = await api.GET('/extended/v2/addresses/{principal}/balances/stx', { params: { path: { principal: sender } } });
  assert.equal(v2.response.status, 200);

  const supply = await api.GET('/extended/v1/stx_supply', {});
  assert.equal(typeof supply.data!.total_stx, 'string');
  const search = await api.GET('/extended/v1/search/{id}', { params: { path: { id: tx.tx_id } } });
  assert.equal(search.response.status, 200);
  const fees = await api.GET('/extended/v2/mempool/fees', {});
  assert.equal(fees.response.status, 200);
  const cycles = await api.GET('/extended/v2/pox/cycles', {});
  assert.equal(cycles.response.status, 200);
  const names = await api.GET('/v1/names', {});
  assert.equal(names.response.status, 200);
  const status = await api.GET('/extended', {});
  assert.equal(status.data!.status, 'ready');
  const health = await api.GET('/health', {});
  assert.equal(health.data!.status, 'ok');
  const ready = await api.GET('/ready', {});
  assert.equal(ready.data!.status, 'ready');
  const networks = await api.POST('/rosetta/v1/network/list', { body: { metadata: {} } });
  assert.equal(networks.response.status, 200);
  assert.equal(networks.data!.network_identifiers[0].blockchain, 'stacks');
});

test("every recorded request of the fixture through the client, answers as documented", async () => {
  const matcher = new PathMatcher(Object.keys(doc.paths));
  const untyped = api as unknown as Record<'GET' | 'POST', (path: string, init: Record<string, unknown>) => Promise<{ response: Response; data?: unknown; error?: unknown }>>;
  let called = 0;
  const families = new Set<string>();
  for (const g of readGoldens(join(SHARED, 'goldens'), [`${FIXTURE}.jsonl.gz`])) {
    // fetch follows redirects: a 301's own answer is not the client's to see.
    if (g.status >= 300 && g.status < 400) continue;
    const method = (g.method ?? 'GET').toLowerCase();
    const [rawPath, rawQuery = ''] = g.url.split('?');
    const path = matcher.match(rawPath);
    if (!path || !doc.paths[path][method]) continue;
    // Path parameters as the client takes them (decoded; it encodes them again).
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const values = rawPath.split('/').filter((_, i) => path.split('/')[i]?.startsWith('{'));
    const params = { path: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(values[i])])), query: Object.fromEntries(new URLSearchParams(rawQuery)) };
    const answer = method === 'post' ? await untyped.POST(path, { params, body: g.request_body }) : await untyped.GET(path, { params, parseAs: path.endsWith('/plain') ? 'text' : 'json' });
    assert.equal(answer.response.status, g.status, `${method.toUpperCase()} ${g.url}`);
    if (g.status < 300 && !path.endsWith('/plain')) assertDocumented(path, method, g.status, answer.data);
    else if (g.status >= 400) assertDocumented(path, method, g.status, answer.error);
    families.add(path.split('/').slice(0, 4).join('/'));
    called++;
  }
  assert.ok(called > 500, `${called} requests`);
  assert.ok(families.size >= 25, `${families.size} families`);
});
