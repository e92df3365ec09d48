// Every recorded log imports without error, and real duplicate deliveries change nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED, runScript, startService, tempDataDir, waitForProcessing } from '../testing/service.ts';

const importEvents = (dataDir: string, file: string, extra: string[] = []) => runScript('src/cli/import-events.ts', ['--file', file, ...extra], { STACKS_API_DATA_DIR: dataDir });

const FIXTURES = readdirSync(join(SHARED, 'fixtures')).filter((f) => /\.tsv(\.gz)?$/.test(f) && !f.includes('with-duplicates'));

for (const f of FIXTURES) {
  test(`${f} imports without error`, async () => {
    const dir = tempDataDir();
    const r = await importEvents(dir, join(SHARED, 'fixtures', f));
    assert.equal(r.code, 0, r.output);
    assert.match(r.output, /processed \d+ entries \(0 rejected\)/);
    // The aggregates are merged after the import (src/storage/merge-aggregates.ts): at most one part each.
    assert.match(r.output, /merged the analytics aggregates in [\d.]+ s: analytics_by_bucket [01] parts?, analytics_by_key [01] parts?\n/);
    const svc = await startService({ dataDir: dir });
    try {
      const status = await waitForProcessing(svc.apiUrl);
      const log = status.event_log as { received_id: number; processed_id: number; error?: unknown };
      assert.equal(log.error, undefined);
      assert.ok(log.received_id > 0 && log.processed_id === log.received_id);
    } finally {
      await svc.stop();
    }
  });
}

test('duplicate deliveries change nothing (the recorded log with 294 repeated requests)', async () => {
  const plain = tempDataDir();
  const dup = tempDataDir();
  assert.equal((await importEvents(plain, join(SHARED, 'fixtures', 'stackerdb-sample-events.tsv.gz'))).code, 0);
  const r = await importEvents(dup, join(SHARED, 'fixtures', 'stackerdb-sample-events.with-duplicates.tsv.gz'), ['--keep-duplicate-ids']);
  assert.equal(r.code, 0, r.output);
  const answers = async (dataDir: string) => {
    const svc = await startService({ dataDir });
    try {
      const out: unknown[] = [];
      for (const path of ['/extended', '/extended/v1/block?limit=30', '/extended/v1/block?limit=30&offset=200', '/extended/v2/blocks?limit=30&offset=450', '/extended/v1/block/by_height/300']) {
        const body = (await (await fetch(svc.apiUrl + path)).json()) as Record<string, unknown>;
        // Log positions differ between the two logs (the same chain).
        delete body.event_log;
        delete body.serving_store;
        out.push(body);
      }
      return out;
    } finally {
      await svc.stop();
    }
  };
  const [a, b] = [await answers(plain), await answers(dup)];
  assert.equal((a[0] as { chain_tip: { block_height: number } }).chain_tip.block_height > 400, true);
  assert.deepEqual(b, a);
});

test('Bitcoin-originated and sBTC blocks are accepted and stored', async () => {
  const svc = await startService();
  try {
    for (const dir of ['new_block-json', 'sbtc-new_block-json']) {
      for (const f of readdirSync(join(SHARED, 'fixtures', dir))) {
        const res = await fetch(`${svc.eventUrl}/new_block`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: readFileSync(join(SHARED, 'fixtures', dir, f)) });
        assert.equal(res.status, 200, `${dir}/${f}: ${await res.text()}`);
      }
    }
    const status = await waitForProcessing(svc.apiUrl);
    assert.equal((status.event_log as { error?: unknown }).error, undefined);
    assert.equal((status.event_log as { processed_id: number }).processed_id, 14);
  } finally {
    await svc.stop();
  }
});
