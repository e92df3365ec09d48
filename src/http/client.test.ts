// The official client (@stacks/blockchain-api-client, unchanged) against our server on a recorded
// log: transactions and blocks come back as the reference served them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createClient } from '@stacks/blockchain-api-client';
import { startService, waitForProcessing, SHARED, type RunningService } from '../testing/service.ts';
import { feedFixture } from '../testing/goldens.ts';

const FIXTURE = 'fuzzed-transactions-1';
let svc: RunningService;
let client: ReturnType<typeof createClient>;
const goldens = new Map<string, { status: number; body: Record<string, unknown> }>();

before(async () => {
  for (const line of gunzipSync(readFileSync(join(SHARED, 'goldens', `${FIXTURE}.jsonl.gz`))).toString('utf8').split('\n')) {
    if (!line) continue;
    const g = JSON.parse(line) as { url: string; status: number; body: Record<string, unknown> };
    goldens.set(g.url, g);
  }
  svc = await startService();
  await feedFixture(svc.eventUrl, FIXTURE);
  await waitForProcessing(svc.apiUrl);
  client = createClient({ baseUrl: svc.apiUrl });
});

after(async () => {
  await svc?.stop();
});

const golden = (url: string) => {
  const g = goldens.get(url);
  assert.ok(g, `a golden for ${url}`);
  return g.body;
};

test('transactions through the client', async () => {
  const list = await client.GET('/extended/v1/tx/', { params: { query: { limit: 10 } } });
  assert.equal(list.response.status, 200);
  const ids = list.data!.results.map((t) => t.tx_id);
  assert.ok(ids.length > 0);
  let compared = 0;
  for (const tx_id of ids) {
    const g = goldens.get(`/extended/v1/tx/${tx_id}`);
    if (!g) continue;
    const one = await client.GET('/extended/v1/tx/{tx_id}', { params: { path: { tx_id } } });
    assert.equal(one.response.status, 200);
    const tx = one.data as Record<string, unknown>;
    for (const k of ['tx_id', 'tx_type', 'tx_status', 'block_height', 'block_hash', 'sender_address', 'fee_rate', 'nonce', 'canonical']) assert.deepEqual(tx[k], g.body[k], `${tx_id} ${k}`);
    compared++;
  }
  assert.ok(compared > 0, 'compared with the reference');
  const missing = await client.GET('/extended/v1/tx/{tx_id}', { params: { path: { tx_id: `0x${'ab'.repeat(32)}` } } });
  assert.equal(missing.response.status, 404);
});

test('blocks through the client', async () => {
  const v1 = await client.GET('/extended/v1/block/', { params: { query: { limit: 30 } } });
  assert.equal(v1.response.status, 200);
  assert.deepEqual(v1.data, golden('/extended/v1/block?limit=30'));
  const byHeight = await client.GET('/extended/v1/block/by_height/{height}', { params: { path: { height: 3 } } });
  assert.deepEqual(byHeight.data, golden('/extended/v1/block/by_height/3'));
  const v2 = await client.GET('/extended/v2/blocks/', { params: { query: { limit: 3, offset: 2 } } });
  assert.deepEqual(v2.data, golden('/extended/v2/blocks?limit=3&offset=2'));
  const tip = await client.GET('/extended/v2/blocks/{height_or_hash}', { params: { path: { height_or_hash: 'latest' } } });
  assert.equal(tip.data?.height, 12);
  const txs = await client.GET('/extended/v2/blocks/{height_or_hash}/transactions', { params: { path: { height_or_hash: 11 } } });
  assert.equal(txs.response.status, 200);
  assert.equal(txs.data?.total, 2);
});
