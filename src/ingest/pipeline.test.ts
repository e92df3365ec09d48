// A live backlog (entries durable before processing reaches them) is stored in batches closed by
// time as well as size: STACKS_API_LIVE_BATCH_MS bounds how long what arrived stays unreadable, and
// entries that arrive fast are gathered that long.
// The log is compressed once processed, and a service answers alike from it.
import { DATA_LAYOUT, writeLayoutMarker } from './data-layout.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startService, tempDataDir, waitForProcessing } from '../testing/service.ts';
import { feedFixture, fedService } from '../testing/goldens.ts';
import { assertSameAnswers, metricValue, servedUrls } from '../testing/compare-services.ts';
import { copyLog } from '../testing/event-log.ts';
import { listSegments } from './event-log/segments.ts';
import { readTsvRows } from './tsv/read-tsv.ts';
import { SHARED_DIR } from '../config/shared-dir.ts';

const batchesStored = (apiUrl: string) => metricValue(apiUrl, 'stacks_ingest_batches_total');

/** Starts a fresh service whose event log already holds `events` (nothing processed yet). */
async function backlogProcessed(events: string, liveBatchMs: string): Promise<{ batches: number; entries: number }> {
  const dir = tempDataDir();
  cpSync(events, join(dir, 'events'), { recursive: true });
  rmSync(join(dir, 'events', 'checkpoint.json'), { force: true });
  // A log this version wrote, in a directory marked as its layout (without it: an earlier layout's).
  cpSync(join(events, '..', 'layout.json'), join(dir, 'layout.json'));
  const svc = await startService({ dataDir: dir, env: { STACKS_API_LIVE_BATCH_MS: liveBatchMs } });
  try {
    const status = (await waitForProcessing(svc.apiUrl)) as { event_log: { processed_id: number; error?: unknown } };
    assert.equal(status.event_log.error, undefined);
    return { batches: await batchesStored(svc.apiUrl), entries: status.event_log.processed_id };
  } finally {
    await svc.stop();
  }
}

test('a live backlog is stored in batches closed after STACKS_API_LIVE_BATCH_MS, not only at their size limit', async () => {
  const fed = await startService();
  try {
    await feedFixture(fed.eventUrl, 'mocknet');
    await waitForProcessing(fed.apiUrl);
  } finally {
    await fed.stop();
  }
  const events = join(fed.dataDir, 'events');
  const slow = await backlogProcessed(events, '600000');
  const eager = await backlogProcessed(events, '0');
  assert.ok(slow.entries > 10, `the backlog has entries (${slow.entries})`);
  // The whole backlog fits one batch by size, so only the time bound splits it.
  assert.equal(slow.batches, 1);
  assert.equal(eager.entries, slow.entries);
  assert.equal(eager.batches, eager.entries);
});

test('entries a node sends fast are gathered into batches STACKS_API_LIVE_BATCH_MS apart, and decoded once; one at a time, each is stored at once', async () => {
  // A real node's first 404 deliveries (blocks, burn blocks, mempool txs, signer messages).
  const rows: Array<{ path: string; payload: string }> = [];
  for await (const r of readTsvRows(join(SHARED_DIR, 'fixtures', 'stackerdb-sample-events.tsv.gz'))) if (rows.push(r) >= 404) break;
  const svc = await startService({ env: { STACKS_API_LIVE_BATCH_MS: '8000' } });
  const post = async (r: { path: string; payload: string }) => {
    const res = await fetch(`${svc.eventUrl}${r.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: r.payload });
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  };
  try {
    // One at a time, each after the last is readable: a batch each, none waiting to gather.
    for (const r of rows.slice(0, 4)) {
      const t0 = performance.now();
      await post(r);
      await waitForProcessing(svc.apiUrl);
      assert.ok(performance.now() - t0 < 6_000, `readable ${Math.round(performance.now() - t0)} ms after its POST, not after a gathering of 8 s`);
    }
    assert.equal(await batchesStored(svc.apiUrl), 4);
    assert.equal(await metricValue(svc.apiUrl, 'stacks_ingest_gathers_total'), 0);
    // The rest as fast as the observer acks (hundreds a second). Once a range waits to gather them,
    // the processor reads nothing for 8 s, so the entries posted meanwhile put it 64 and more behind:
    // their decodes are the observer's, handed over. (Without the wait, whether it falls that far
    // behind depends on the machine's pace.) The gathering is looked for every 8 entries.
    const burst = rows.slice(4);
    let postedBeforeGathering = -1;
    for (const [k, r] of burst.entries()) {
      await post(r);
      if (postedBeforeGathering < 0 && k % 8 === 7 && (await metricValue(svc.apiUrl, 'stacks_ingest_gathers_total')) >= 1) postedBeforeGathering = k + 1;
    }
    assert.ok(postedBeforeGathering > 0, 'a range waited to gather the burst');
    assert.ok(burst.length - postedBeforeGathering > 64, `${burst.length - postedBeforeGathering} entries posted while the range gathered, more than 64`);
    const status = (await waitForProcessing(svc.apiUrl)) as { event_log: { processed_id: number; error?: unknown } };
    assert.equal(status.event_log.error, undefined);
    assert.equal(status.event_log.processed_id, rows.length);
    // Once the processor was 64 entries behind, the observer's decodes were taken instead of the pool's.
    assert.ok((await metricValue(svc.apiUrl, 'stacks_ingest_handed_over_total')) >= 1, 'decodes handed over');
  } finally {
    await svc.stop();
  }
});

/** Waits until every segment of `logDir` but the newest is compressed (the compactor looks every 2 s). */
async function compacted(logDir: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const segments = listSegments(logDir);
    if (segments.slice(0, -1).every((s) => s.compressed)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not compressed: ${listSegments(logDir).filter((s) => !s.compressed).map((s) => s.firstId).join(', ')}`);
}

test('the service compresses its log once processed, and answers alike after a restart whose reorg reads old blocks back from it, and after a replay of it', async () => {
  const fixture = 'mainnet-reorg-scenario2';
  const reference = await fedService(fixture);
  const urls = servedUrls(fixture);
  try {
    const source = join(reference.dataDir, 'events');
    const dataDir = tempDataDir();
    const logDir = join(dataDir, 'events');
    // A log this version wrote: its directory carries the layout marker (data-layout.ts).
    writeLayoutMarker(dataDir, { layout: DATA_LAYOUT });
    // The log up to the second block 2 (not canonical yet), one record per segment, processed and
    // compressed by the service.
    await copyLog(source, logDir, 1, { untilId: 4 });
    const first = await startService({ dataDir });
    await waitForProcessing(first.apiUrl);
    await compacted(logDir);
    await first.stop();
    assert.deepEqual(listSegments(logDir).map((s) => s.compressed), [true, true, true, false]);
    // The rest arrives while it is stopped; after the restart, the block on the second block 2
    // orphans the first, whose documents are decoded again from its record, now compressed.
    const total = 4 + (await copyLog(source, logDir, 1, { afterId: 4 }));
    const second = await startService({ dataDir });
    try {
      await waitForProcessing(second.apiUrl);
      assert.equal(await assertSameAnswers(reference.apiUrl, second.apiUrl, urls), urls.length);
      await compacted(logDir);
    } finally {
      await second.stop();
    }
    // A fresh store replayed from the compressed log.
    const replayDir = tempDataDir();
    writeLayoutMarker(replayDir, { layout: DATA_LAYOUT });
    cpSync(logDir, join(replayDir, 'events'), { recursive: true });
    rmSync(join(replayDir, 'events', 'checkpoint.json'));
    assert.equal(listSegments(join(replayDir, 'events')).filter((s) => s.compressed).length, total - 1);
    const replay = await startService({ dataDir: replayDir });
    try {
      await waitForProcessing(replay.apiUrl);
      assert.equal(await assertSameAnswers(reference.apiUrl, replay.apiUrl, urls), urls.length);
      assert.equal(await metricValue(replay.apiUrl, 'stacks_ingest_entries_total'), total);
    } finally {
      await replay.stop();
    }
  } finally {
    await reference.stop();
  }
});
