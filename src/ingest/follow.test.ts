// A read-only process that follows the writer's event log answers as the writer does, from its
// own serving store, while the writer ingests, and while the log it follows is compressed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED, runTool, startService, tempDataDir, waitForProcessing } from '../testing/service.ts';
import { assertSameAnswers, metricValue, servedUrls } from '../testing/compare-services.ts';
import { compressSealed, copyLog } from '../testing/event-log.ts';
import { fedService } from '../testing/goldens.ts';
import { listSegments } from './event-log/segments.ts';

const FIXTURE = 'mainnet-reorg-scenario2';
const FOLLOWER_ENV = { STACKS_API_MODE: 'readonly', STACKS_API_RESPONSE_CACHE_MB: '0' };

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

test('a read-only follower of the writer\'s log serves the same answers from its own store while the writer ingests', async () => {
  const writer = await startService();
  const follower = await startService({ env: { ...FOLLOWER_ENV, STACKS_API_FOLLOW_LOG: join(writer.dataDir, 'events') } });
  try {
    const rows = readFileSync(join(SHARED, 'fixtures', `${FIXTURE}.tsv`), 'utf8').split('\n').filter(Boolean);
    const half = Math.ceil(rows.length / 2);
    const list = servedUrls(FIXTURE);
    assert.ok(list.length > 50, 'golden urls');
    for (const part of [rows.slice(0, half), rows.slice(half)]) {
      const file = join(tempDataDir('follow-part-'), 'part.tsv');
      writeFileSync(file, part.join('\n') + '\n');
      const fed = await runTool('feed-events.mjs', [file, '--url', writer.eventUrl]);
      assert.equal(fed.code, 0, fed.output);
      const w = await waitForProcessing(writer.apiUrl);
      await caughtUp(follower.apiUrl, (w as { event_log: { processed_id: number } }).event_log.processed_id);
      assert.equal(await assertSameAnswers(writer.apiUrl, follower.apiUrl, list), list.length);
    }
  } finally {
    await follower.stop();
    await writer.stop();
  }
});

test('a follower reads every entry once while the log it follows is compressed under it', async () => {
  const reference = await fedService(FIXTURE);
  const followed = join(tempDataDir('followed-'), 'events');
  const source = join(reference.dataDir, 'events');
  // The followed log in segments of one record each, so that every record but the newest can be
  // compressed: the first three entries (the first block 2 is canonical so far), then the rest.
  await copyLog(source, followed, 1, { untilId: 3 });
  const follower = await startService({ env: { ...FOLLOWER_ENV, STACKS_API_FOLLOW_LOG: followed } });
  try {
    await caughtUp(follower.apiUrl, 3);
    await compressSealed(followed);
    const total = 3 + (await copyLog(source, followed, 1, { afterId: 3 }));
    // Compressed at once, before or while the follower reads them.
    await compressSealed(followed);
    assert.deepEqual(listSegments(followed).map((s) => s.compressed), Array.from({ length: total }, (_, i) => i < total - 1));
    await caughtUp(follower.apiUrl, total);
    const list = servedUrls(FIXTURE);
    assert.equal(await assertSameAnswers(reference.apiUrl, follower.apiUrl, list), list.length);
    assert.equal(await metricValue(follower.apiUrl, 'stacks_ingest_entries_total'), total, 'each entry processed once');
  } finally {
    await follower.stop();
    await reference.stop();
  }
});
