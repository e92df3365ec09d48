// A read-only process that follows the writer's event log answers as the writer does, from its
// own serving store, while the writer ingests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { SHARED, runTool, startService, tempDataDir, waitForProcessing } from '../testing/service.ts';

const FIXTURE = 'mainnet-reorg-scenario2';
const SERVED = /^\/extended\/v1\/(tx|block|address)|^\/extended\/v2\/(blocks|addresses)/;

/** The golden URLs of the families the serving store answers. */
function urls(): string[] {
  const text = gunzipSync(readFileSync(join(SHARED, 'goldens', `${FIXTURE}.jsonl.gz`))).toString('utf8');
  const all = text.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { url: string; method?: string }));
  return [...new Set(all.filter((g) => (g.method ?? 'GET') === 'GET' && SERVED.test(g.url)).map((g) => g.url))];
}

async function status(apiUrl: string): Promise<{ event_log: { processed_id: number }; serving_store?: { applied_id: number; ready: boolean } }> {
  return (await (await fetch(`${apiUrl}/extended`)).json()) as never;
}

async function caughtUp(followerUrl: string, id: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const s = await status(followerUrl);
    if (s.serving_store && s.serving_store.applied_id >= id && s.serving_store.ready) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the follower did not reach entry ${id}`);
}

async function compare(writerUrl: string, followerUrl: string, list: string[]): Promise<number> {
  let same = 0;
  for (const url of list) {
    const [a, b] = await Promise.all([fetch(writerUrl + url, { redirect: 'manual' }), fetch(followerUrl + url, { redirect: 'manual' })]);
    assert.equal(b.status, a.status, url);
    assert.deepEqual(await b.json().catch(() => null), await a.json().catch(() => null), url);
    same++;
  }
  return same;
}

test('a read-only follower of the writer\'s log serves the same answers from its own store while the writer ingests', async () => {
  const writer = await startService();
  const follower = await startService({ env: { STACKS_API_MODE: 'readonly', STACKS_API_FOLLOW_LOG: join(writer.dataDir, 'events'), STACKS_API_RESPONSE_CACHE_MB: '0' } });
  try {
    const rows = readFileSync(join(SHARED, 'fixtures', `${FIXTURE}.tsv`), 'utf8').split('\n').filter(Boolean);
    const half = Math.ceil(rows.length / 2);
    const list = urls();
    assert.ok(list.length > 50, 'golden urls');
    for (const part of [rows.slice(0, half), rows.slice(half)]) {
      const file = join(tempDataDir('follow-part-'), 'part.tsv');
      writeFileSync(file, part.join('\n') + '\n');
      const fed = await runTool('feed-events.mjs', [file, '--url', writer.eventUrl]);
      assert.equal(fed.code, 0, fed.output);
      const w = await waitForProcessing(writer.apiUrl);
      await caughtUp(follower.apiUrl, (w as { event_log: { processed_id: number } }).event_log.processed_id);
      assert.equal(await compare(writer.apiUrl, follower.apiUrl, list), list.length);
    }
  } finally {
    await follower.stop();
    await writer.stop();
  }
});
