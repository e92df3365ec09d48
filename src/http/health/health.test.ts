// /ready says not ready (503, naming the failed check) while processing is stopped at an entry the
// store refuses, and /health still answers: the process is up. (The ready case is in
// src/metrics/metrics.test.ts, on a fed service.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED, startService, waitForProcessing } from '../../testing/service.ts';
import { storeThatRefuses } from '../../testing/store.ts';
import { parseTsvLine } from '../../ingest/tsv/copy-text.ts';

test('/ready is 503 while processing is stopped; /health is 200', { timeout: 180_000 }, async () => {
  const rows = readFileSync(join(SHARED, 'fixtures', 'fuzzed-transactions-1.tsv'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => parseTsvLine(l)!);
  // The store refuses the mempool tx of the 14th entry (as a schema mismatch would).
  const rawTx = (JSON.parse(rows[13].payload) as string[])[0];
  const dataDir = await storeThatRefuses(rows.slice(0, 10), `ALTER TABLE mempool_txs ADD CONSTRAINT refuse_one_tx CHECK raw_tx != '${rawTx}'`);
  const svc = await startService({ dataDir, env: { STACKS_API_READY_MAX_LAG: '5' } });
  try {
    for (const r of rows.slice(10)) assert.equal((await fetch(svc.eventUrl + r.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: r.payload })).status, 200);
    await waitForProcessing(svc.apiUrl);
    const ready = await fetch(`${svc.apiUrl}/ready`);
    assert.equal(ready.status, 503);
    const body = (await ready.json()) as { status: string; checks: { store: { ok: boolean }; processing: { ok: boolean; message?: string }; lag: { ok: boolean; behind: number; max: number } } };
    assert.equal(body.status, 'not_ready');
    assert.equal(body.checks.store.ok, true);
    assert.equal(body.checks.processing.ok, false);
    assert.match(body.checks.processing.message ?? '', /stopped at event log entry 14/);
    assert.equal(body.checks.lag.ok, body.checks.lag.behind < 5);
    assert.equal(body.checks.lag.max, 5);
    assert.equal(ready.headers.get('cache-control'), null, 'not ready is not cached');
    const health = await fetch(`${svc.apiUrl}/health`);
    assert.equal(health.status, 200);
  } finally {
    await svc.stop();
  }
});
