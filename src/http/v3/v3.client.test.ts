// The official client 9.0.2 (@stacks/blockchain-api-client, unchanged) calls every /extended/v3
// path it knows against our service on a recorded log (the one the goldens tests already fed):
// each answers, typed as the client declares, with a body our document's schema for the route
// accepts, and equal to the reference v9's recorded answer where one was recorded.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '@stacks/blockchain-api-client';
import { fedService, readGoldenFile } from '../../testing/goldens.ts';
import type { RunningService } from '../../testing/service.ts';
import { fixtureNetwork } from '../../testing/rosetta-mesh-check.ts';
import { apiOpenApi } from '../routes.ts';
import { DocumentedAnswers, PathMatcher } from '../openapi/match.ts';
import { matchesV3Golden } from './v3.goldens.ts';

const FIXTURE = 'mocknet';
const TX = '0xc3f1e0c958c5c5fd1155595d1948f652f3f18e1e0422f84ae4810ed77277bbce';
const MINER = 'ST16G69GQBDPMRY6308JN0GDTYF265JX3KQ6C0VEH';
const STACKER = 'SP2431E3PX2GRS9S6P6090XQEHW09JFH83KYAC02Z';

let svc: RunningService;
let client: ReturnType<typeof createClient>;

before(async () => {
  // The goldens tests' environment, so the run's kept copy of the fed fixture is reused.
  svc = await fedService(FIXTURE, { STACKS_CHAIN_ID: fixtureNetwork(FIXTURE).chainId });
  client = createClient({ baseUrl: svc.apiUrl });
});

after(async () => {
  await svc?.stop();
});

test('typed v3 calls of the client', async () => {
  const page = await client.GET('/extended/v3/transactions', { params: { query: { limit: 5 } } });
  assert.equal(page.response.status, 200);
  const next = page.data!.cursor.next!;
  assert.match(next, /^\d+:\d+:\d+$/);
  const more = await client.GET('/extended/v3/transactions', { params: { query: { limit: 5, cursor: next } } });
  assert.equal(more.data!.results[0].tx_id === page.data!.results[4].tx_id, false);
  assert.equal(more.data!.cursor.current, next);

  const tx = await client.GET('/extended/v3/transactions/{tx_id}', { params: { path: { tx_id: TX }, query: { include: ['function_args', 'result'] } } });
  assert.equal(tx.response.status, 200);
  assert.equal(tx.data!.tx_id, TX);
  assert.ok(tx.data!.type === 'contract_call' && tx.data!.contract_call.function_args!.length === 4);

  const mine = await client.GET('/extended/v3/principals/{principal}/transactions', { params: { path: { principal: MINER }, query: { limit: 50 } } });
  assert.equal(mine.data!.total, 28);
  assert.ok(mine.data!.results.every((r) => r.involvement === 'sender' && r.transaction.type === 'coinbase'));

  const stx = await client.GET('/extended/v3/principals/{principal}/balances/stx', { params: { path: { principal: STACKER } } });
  assert.equal(stx.data!.locked?.amount, '124999999740');
  const nonces = await client.GET('/extended/v3/principals/{principal}/nonces', { params: { path: { principal: MINER } } });
  assert.equal(nonces.data!.next_nonce, 28);
});

test('every v3 path of the client answers with its documented shape', async () => {
  const doc = apiOpenApi() as unknown as { paths: Record<string, Record<string, unknown>>; components: unknown };
  const matcher = new PathMatcher(Object.keys(doc.paths));
  const answers = new DocumentedAnswers(doc);
  const goldens = readGoldenFile(FIXTURE, 'goldens-v3');
  const calls: Array<[path: string, url: string, status: number]> = [
    ['/extended/v3/transactions', '/extended/v3/transactions?limit=3', 200],
    ['/extended/v3/transactions/{tx_id}', `/extended/v3/transactions/${TX}?include=post_conditions`, 200],
    ['/extended/v3/transactions/{tx_id}/events', `/extended/v3/transactions/${TX}/events`, 200],
    ['/extended/v3/blocks/{height_or_hash}/transactions', '/extended/v3/blocks/1/transactions?limit=3', 200],
    ['/extended/v3/mempool/transactions', '/extended/v3/mempool/transactions', 200],
    ['/extended/v3/principals/{principal}/transactions', `/extended/v3/principals/${STACKER}/transactions`, 200],
    ['/extended/v3/principals/{principal}/transactions/{tx_id}/balance-changes', `/extended/v3/principals/${STACKER}/transactions/${TX}/balance-changes`, 200],
    ['/extended/v3/principals/{principal}/balance-changes', `/extended/v3/principals/${STACKER}/balance-changes?tx_id=${TX}`, 200],
    ['/extended/v3/principals/{principal}/staking', `/extended/v3/principals/${STACKER}/staking`, 200],
    ['/extended/v3/principals/{principal}/staking/bonds', `/extended/v3/principals/${STACKER}/staking/bonds`, 200],
    ['/extended/v3/principals/{principal}/balances/stx', `/extended/v3/principals/${STACKER}/balances/stx`, 200],
    ['/extended/v3/principals/{principal}/balances/ft', `/extended/v3/principals/${STACKER}/balances/ft`, 200],
    ['/extended/v3/principals/{principal}/balances/ft/{asset_identifier}', `/extended/v3/principals/${STACKER}/balances/ft/${STACKER}.token::tok`, 200],
    ['/extended/v3/principals/{principal}/balances/nft', `/extended/v3/principals/${STACKER}/balances/nft`, 200],
    ['/extended/v3/principals/{principal}/nonces', `/extended/v3/principals/${STACKER}/nonces`, 200],
    ['/extended/v3/principals/{principal}/mempool/transactions', `/extended/v3/principals/${STACKER}/mempool/transactions`, 200],
    ['/extended/v3/staking/bonds', '/extended/v3/staking/bonds', 200],
    ['/extended/v3/staking/bonds/{bond_index}', '/extended/v3/staking/bonds/0', 404],
    ['/extended/v3/staking/bonds/{bond_index}/allowlist', '/extended/v3/staking/bonds/0/allowlist', 200],
    ['/extended/v3/staking/bonds/{bond_index}/allowlist/{principal}', `/extended/v3/staking/bonds/0/allowlist/${STACKER}`, 404],
    ['/extended/v3/staking/bonds/{bond_index}/registrations', '/extended/v3/staking/bonds/0/registrations', 200],
    ['/extended/v3/staking/bonds/{bond_index}/registrations/{principal}', `/extended/v3/staking/bonds/0/registrations/${STACKER}`, 404],
    ['/extended/v3/staking/signers', '/extended/v3/staking/signers', 200],
    ['/extended/v3/staking/signers/{principal}', `/extended/v3/staking/signers/${STACKER}`, 404],
    ['/extended/v3/staking/signers/{principal}/stakers', `/extended/v3/staking/signers/${STACKER}/stakers`, 200],
  ];
  let compared = 0;
  for (const [path, url, status] of calls) {
    // Through the client, the path as it types it.
    const parts = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map((m, i) => [m[1], url.split('?')[0].split('/')[path.split('/').indexOf(`{${m[1]}}`)] ?? String(i)]));
    const query = Object.fromEntries(new URLSearchParams(url.split('?')[1] ?? ''));
    const res = await client.GET(path as never, { params: { path: parts, query } } as never);
    assert.equal(res.response.status, status, `${url}: ${JSON.stringify(res.error ?? '')}`);
    const body: unknown = res.data ?? res.error;
    assert.equal(matcher.match(url), path, `${url} is documented as ${path}`);
    const validate = answers.validator(path, 'get', status);
    assert.ok(validate, `${path} ${status} has a schema`);
    assert.ok(validate(body), `${url}: ${answers.errorsText(validate)}`);
    const golden = goldens.get(url);
    if (golden) {
      assert.ok(matchesV3Golden(golden, status, body), `${url} as the reference recorded it`);
      compared++;
    }
  }
  // Every v3 path the client knows was called.
  const v3Paths = Object.keys(doc.paths).filter((p) => p.startsWith('/extended/v3/'));
  assert.deepEqual(calls.map((c) => c[0]).sort(), v3Paths.filter((p) => !p.includes('/cycles/') && !p.includes('/tokens/')).sort());
  assert.ok(compared >= 3, `only ${compared} answers compared with recorded ones`);
});
