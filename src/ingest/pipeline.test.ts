// A live backlog (entries durable before processing reaches them) is stored in batches closed by
// time as well as size: STACKS_API_LIVE_BATCH_MS bounds how long what arrived stays unreadable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startService, tempDataDir, waitForProcessing } from '../testing/service.ts';
import { feedFixture } from '../testing/goldens.ts';

async function batchesStored(apiUrl: string): Promise<number> {
  const text = await (await fetch(`${apiUrl}/metrics`)).text();
  const m = /^stacks_ingest_batches_total (\d+)/m.exec(text);
  assert.ok(m, 'the batch counter is exported');
  return Number(m[1]);
}

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
