// Fuzz of the event observer (seeded and bounded, part of `npm test`): bodies of every observer
// path, mutated from real recorded ones. Whatever they are, the observer answers 200, 400 or 413
// (never a 5xx) within a time limit and keeps answering; nothing it answered 200 stops processing;
// and a real log fed afterwards gives the same answers as on a clean store.
//
// The real log fed afterwards is mocknet.tsv; the fuzz bodies come from the other recordings. Two
// things a fuzzed store legitimately holds would change mocknet's own answers, so the corpus leaves
// them out: boot blocks (height 0, also when a mutation makes one: block 1 shows the receipts of
// whichever boot block is stored, and every chain's boot block has the same hash) and chains as
// tall as mocknet's (a taller one would rightly win).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { SHARED, startService, waitForProcessing, type RunningService } from '../testing/service.ts';
import { feedFixture } from '../testing/goldens.ts';
import { rawRequest } from '../testing/http.ts';
import { mutateBody, seeded } from '../testing/fuzz.ts';
import { parseTsvLine } from './tsv/copy-text.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const BODIES = 1_500;
const MAX_HEIGHT = 20; // mocknet's chain is 28 blocks tall

function fixtureRows(file: string) {
  let buf = readFileSync(join(SHARED, 'fixtures', file));
  if (file.endsWith('.gz')) buf = gunzipSync(buf);
  return buf.toString('utf8').split('\n').map(parseTsvLine).filter((r) => r !== null);
}

/** Real bodies by path, from every recording but mocknet. */
function corpus(): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  const add = (path: string, payload: string) => {
    if (path === '/new_block') {
      const height = (JSON.parse(payload) as { block_height: number }).block_height;
      // Boot blocks and chains as tall as mocknet's stay out (see above); a few taller blocks with
      // missing parents (held) stay in.
      if (height === 0 || (height > MAX_HEIGHT && (height < 300 || height > 305) && height < 1000)) return;
    }
    byPath.set(path, [...(byPath.get(path) ?? []), payload]);
  };
  for (const f of readdirSync(join(SHARED, 'fixtures'))) {
    if (!/\.tsv(\.gz)?$/.test(f) || f.startsWith('mocknet') || f.includes('with-duplicates')) continue;
    for (const r of fixtureRows(f)) add(r.path, r.payload);
  }
  for (const dir of ['new_block-json', 'sbtc-new_block-json']) for (const f of readdirSync(join(SHARED, 'fixtures', dir))) add('/new_block', readFileSync(join(SHARED, 'fixtures', dir, f), 'utf8'));
  // No recording has an attachment: one in the node's format.
  add('/attachments/new', JSON.stringify([{ attachment_index: 1, index_block_hash: `0x${'a1'.repeat(32)}`, block_height: 5, content_hash: `0x${'b2'.repeat(20)}`, contract_id: 'SP000000000000000000002Q6VF78.bns', metadata: '0x0c00000001046e616d650200000003616263', tx_id: `0x${'c3'.repeat(32)}`, content: '0x' }]));
  add('/some_future_path', '{"anything": [1, 2, 3]}');
  return byPath;
}

const CONTENT_TYPES = ['application/json', 'text/plain', 'application/octet-stream', 'multipart/form-data; boundary=x', ''];

/** The answers of a few routes for everything a real log stored: blocks, txs, addresses. */
const COMPARED = /^\/extended\/(v1\/(block(\/|\?)|tx\/0x[0-9a-f]{64}(\?|$)|tx\/block|address\/[^/?]+\/(balances|stx|assets|transactions)(\?|$))|v2\/(blocks|addresses\/[^/?]+\/balances\/(stx|ft)$))/;

function comparedUrls(): string[] {
  const urls = new Set<string>();
  for (const line of gunzipSync(readFileSync(join(SHARED, 'goldens', 'mocknet.jsonl.gz'))).toString('utf8').split('\n')) {
    if (!line) continue;
    const g = JSON.parse(line) as { url: string; method?: string };
    if ((g.method ?? 'GET') === 'GET' && COMPARED.test(g.url) && !/unanchored|include_mempool/.test(g.url)) urls.add(g.url);
  }
  return [...urls];
}

const MEMPOOL_FIELDS = new Set(['estimated_balance', 'pending_balance_inbound', 'pending_balance_outbound']);

async function answers(svc: RunningService, urls: string[]): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const url of urls) {
    const res = await fetch(svc.apiUrl + url);
    // Pending balances count the mempool, where the fuzz's accepted announcements rightly are (the
    // devnet recordings share addresses with mocknet).
    const body = JSON.stringify(await res.json(), (k, v: unknown) => (MEMPOOL_FIELDS.has(k) ? undefined : v));
    out.set(url, { status: res.status, body });
  }
  return out;
}

test(`observer fuzz: ${BODIES} mutated bodies of every path (seed ${SEED})`, { timeout: 900_000 }, async () => {
  const rnd = seeded(SEED);
  const bodies = corpus();
  const paths = [...bodies.keys()];
  assert.ok(paths.length >= 9, `bodies of every path: ${paths.join(', ')}`);
  const svc = await startService();
  const statuses = new Map<number, number>();
  const perPath = new Map<string, number>();
  try {
    for (let i = 0; i < BODIES; i++) {
      const path = paths[i % paths.length];
      const source = rnd.pick(bodies.get(path)!);
      const mutated = mutateBody(rnd, source);
      const what = mutated.what;
      // A mutation that makes a block a boot block (height 0) is turned back: see the top.
      const body = path === '/new_block' ? mutated.body.replace(/"block_height":(-?0)([,}])/g, '"block_height":7$2') : mutated.body;
      const res = await rawRequest(svc.eventUrl, 'POST', path, { headers: { 'content-type': rnd.pick(CONTENT_TYPES) }, body, timeoutMs: 30_000 });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      perPath.set(path, (perPath.get(path) ?? 0) + 1);
      assert.ok([200, 400, 413].includes(res.status), `#${i} ${path} (${what}): ${res.status} ${res.body.slice(0, 300)}`);
      if (i % 200 === 199) assert.equal((await rawRequest(svc.apiUrl, 'GET', '/extended', { timeoutMs: 30_000 })).status, 200, 'the API still answers');
    }
    console.log(`answers: ${JSON.stringify(Object.fromEntries(statuses))}; per path: ${JSON.stringify(Object.fromEntries(perPath))}`);
    assert.ok((statuses.get(200) ?? 0) > 100 && (statuses.get(400) ?? 0) > 100, 'both accepted and refused bodies');
    const status = (await waitForProcessing(svc.apiUrl, 300_000)) as { status: string; event_log: { error?: unknown } };
    assert.equal(status.event_log.error, undefined, `nothing answered 200 stopped processing: ${JSON.stringify(status.event_log.error)}`);
    assert.equal(status.status, 'ready');
    assert.equal((await rawRequest(svc.eventUrl, 'GET', '/')).status, 200, 'the observer still answers');

    // A real log fed now gives the answers it gives on a clean store.
    await feedFixture(svc.eventUrl, 'mocknet');
    const after = (await waitForProcessing(svc.apiUrl)) as { event_log: { error?: unknown }; chain_tip: { block_height: number } };
    assert.equal(after.event_log.error, undefined);
    assert.equal(after.chain_tip.block_height, 28);
    const clean = await startService();
    try {
      await feedFixture(clean.eventUrl, 'mocknet');
      await waitForProcessing(clean.apiUrl);
      const urls = comparedUrls();
      assert.ok(urls.length > 200, `compared ${urls.length} URLs`);
      const [got, expected] = [await answers(svc, urls), await answers(clean, urls)];
      const differ = urls.filter((u) => JSON.stringify(got.get(u)) !== JSON.stringify(expected.get(u)));
      for (const u of differ.slice(0, 3)) console.log(`differs: ${u}\n fuzzed store ${JSON.stringify(got.get(u))}\n clean store  ${JSON.stringify(expected.get(u))}`);
      assert.deepEqual(differ, [], 'answers that differ from a clean store');
    } finally {
      await clean.stop();
    }
  } finally {
    await svc.stop();
  }
});
