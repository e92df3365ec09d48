// With too little free disk the serving store refuses a batch instead of writing pages the kernel
// could not back (a SIGBUS would kill the process): processing stops naming the disk, the observer
// keeps taking events, the API keeps answering, and after a restart with room the store catches up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED, startService, waitForProcessing, tempDataDir } from '../testing/service.ts';
import { feedFixture } from '../testing/goldens.ts';
import { parseTsvLine } from '../ingest/tsv/copy-text.ts';
import { freeMb } from './free-space.ts';

test('a full disk stops processing with a clear error, not the process; a restart with room catches up', { timeout: 300_000 }, async () => {
  const dataDir = tempDataDir();
  const needed = Math.ceil(freeMb(dataDir)) + 1024;
  const lowOnDisk = await startService({ dataDir, env: { STACKS_API_STORE_MIN_FREE_MB: String(needed) } });
  try {
    await feedFixture(lowOnDisk.eventUrl, 'fuzzed-transactions-1');
    const status = await waitForProcessing(lowOnDisk.apiUrl);
    assert.ok(status.event_log && (status.event_log as { error?: unknown }).error, JSON.stringify(status));
    const ready = (await (await fetch(`${lowOnDisk.apiUrl}/ready`)).json()) as { checks: { processing: { ok: boolean; message?: string } } };
    assert.equal(ready.checks.processing.ok, false);
    assert.match(ready.checks.processing.message ?? '', new RegExp(`serving store: only \\d+ MB free on the disk of .*STACKS_API_STORE_MIN_FREE_MB is ${needed}`));
    assert.equal((await fetch(`${lowOnDisk.apiUrl}/health`)).status, 200);
    assert.equal(lowOnDisk.child.exitCode, null, 'the process is still running');
  } finally {
    await lowOnDisk.stop();
  }
  const txIds = readFileSync(join(SHARED, 'fixtures', 'fuzzed-transactions-1.tsv'), 'utf8')
    .split('\n')
    .map((l) => parseTsvLine(l))
    .filter((r) => r?.path === '/new_block')
    .flatMap((r) => (JSON.parse(r!.payload) as { transactions: Array<{ txid: string }> }).transactions.map((t) => t.txid));
  assert.ok(txIds.length > 0);
  const withRoom = await startService({ dataDir });
  try {
    const status = await waitForProcessing(withRoom.apiUrl);
    assert.equal((status.event_log as { error?: unknown }).error, undefined, JSON.stringify(status));
    for (const id of [txIds[0], txIds.at(-1)!]) {
      const res = await fetch(`${withRoom.apiUrl}/extended/v1/tx/${id}`);
      assert.equal(res.status, 200, id);
      assert.equal(((await res.json()) as { tx_id: string }).tx_id, id);
    }
  } finally {
    await withRoom.stop();
  }
});
