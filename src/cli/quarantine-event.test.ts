// A valid entry the store refuses stops processing at that entry, named in /extended; the operator
// quarantines it with one command; processing resumes (live, or by re-running an import); the
// quarantine is recorded in the log and in /extended, and export → import keeps it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED, runScript, startService, tempDataDir, waitForProcessing } from '../testing/service.ts';
import { parseTsvLine } from '../ingest/tsv/copy-text.ts';
import { storeThatRefuses, withStore } from '../testing/store.ts';
import { readRecords } from '../ingest/event-log/reader.ts';
import { RecordStatus } from '../ingest/event-log/record.ts';
import { eventLogDir } from '../ingest/pipeline.ts';

const FIXTURE = join(SHARED, 'fixtures', 'fuzzed-transactions-1.tsv');
const lines = () => readFileSync(FIXTURE, 'utf8').split('\n').filter((l) => l.trim());
const post = (url: string, body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const script = (name: string, args: string[], dataDir: string) => runScript(`src/cli/${name}.ts`, args, { STACKS_API_DATA_DIR: dataDir });

interface EventLogStatus {
  status: string;
  chain_tip: { block_height: number };
  event_log: { received_id: number; processed_id: number; behind: number; error?: { logId: number; path: string; message: string }; quarantined?: Array<{ id: number; path: string; reason: string; error?: string }> };
}

const status = async (apiUrl: string) => (await (await fetch(`${apiUrl}/extended`)).json()) as EventLogStatus;

test('quarantine: a refused entry stops processing there, one command sets it aside, processing resumes live, and export/import keep it', { timeout: 600_000 }, async () => {
  const rows = lines().map((l) => parseTsvLine(l)!);
  const half = 10;
  // The store will refuse the mempool tx of the 14th entry (as a schema mismatch would).
  const target = 14;
  assert.equal(rows[target - 1].path, '/new_mempool_tx');
  const rawTx = (JSON.parse(rows[target - 1].payload) as string[])[0];
  const dataDir = await storeThatRefuses(rows.slice(0, half), `ALTER TABLE mempool_txs ADD CONSTRAINT refuse_one_tx CHECK raw_tx != '${rawTx}'`);
  const svc = await startService({ dataDir });
  try {
    for (const r of rows.slice(half)) assert.equal((await post(svc.eventUrl + r.path, r.payload)).status, 200);
    const stopped = (await waitForProcessing(svc.apiUrl)) as unknown as EventLogStatus;
    assert.equal(stopped.status, 'processing_stopped');
    assert.equal(stopped.event_log.error?.logId, target, 'the entry is named');
    assert.equal(stopped.event_log.error?.path, '/new_mempool_tx');
    assert.match(stopped.event_log.error!.message, /refuse_one_tx/);

    // Refused: an entry already processed, and one that does not exist.
    const processed = await script('quarantine-event', ['--id', '3'], dataDir);
    assert.equal(processed.code, 1);
    assert.match(processed.output, /entry 3 \(\/drop_mempool_tx\) is already processed/);
    assert.equal((await script('quarantine-event', ['--id', '999'], dataDir)).code, 1);

    const q = await script('quarantine-event', ['--id', String(target), '--reason', 'schema mismatch, see ticket 7'], dataDir);
    assert.equal(q.code, 0, q.output);
    assert.match(q.output, new RegExp(`entry ${target} \\(/new_mempool_tx\\) quarantined`));
    // The running service resumes by itself.
    let s = await status(svc.apiUrl);
    for (const until = Date.now() + 60_000; (s.event_log.error || s.event_log.behind > 0) && Date.now() < until; s = await status(svc.apiUrl)) await new Promise((r) => setTimeout(r, 200));
    assert.equal(s.status, 'ready');
    assert.equal(s.event_log.error, undefined);
    assert.equal(s.event_log.processed_id, rows.length, 'everything after it was processed');
    assert.equal(s.chain_tip.block_height, 12);
    assert.equal(s.event_log.quarantined?.length, 1);
    assert.deepEqual({ ...s.event_log.quarantined![0], error: undefined, at: undefined }, { id: target, path: '/new_mempool_tx', reason: 'schema mismatch, see ticket 7', error: undefined, at: undefined });
    assert.match(s.event_log.quarantined![0].error ?? '', /refuse_one_tx/, 'the store error is kept with it');
    const again = await script('quarantine-event', ['--id', String(target)], dataDir);
    assert.match(again.output, /already quarantined/);
  } finally {
    await svc.stop();
  }
  // In the log: the record is marked, its body kept.
  const records = [];
  for await (const r of readRecords(eventLogDir(dataDir))) records.push(r);
  assert.equal(records[target - 1].status, RecordStatus.Quarantined);
  assert.equal(records[target - 1].body.toString(), rows[target - 1].payload);

  // Export keeps it; an import of the export restores it (into a store with no such constraint).
  const file = join(tempDataDir(), 'export.tsv');
  const exp = await script('export-events', ['--file', file], dataDir);
  assert.equal(exp.code, 0, exp.output);
  const exported = readFileSync(file, 'utf8').split('\n');
  assert.match(exported[target - 1], /^14\t[^\t]+\t\/_quarantined\t\{"quarantine":\{"path":"\/new_mempool_tx","reason":"schema mismatch, see ticket 7"/);
  const copy = tempDataDir();
  const imp = await script('import-events', ['--file', file], copy);
  assert.equal(imp.code, 0, imp.output);
  assert.match(imp.output, /\(0 rejected, 1 quarantined\)/);
  const restarted = await startService({ dataDir: copy });
  try {
    const s = (await waitForProcessing(restarted.apiUrl)) as unknown as EventLogStatus;
    assert.equal(s.event_log.error, undefined);
    assert.equal(s.chain_tip.block_height, 12);
    assert.deepEqual(s.event_log.quarantined?.map((x) => [x.id, x.path, x.reason]), [[target, '/new_mempool_tx', 'schema mismatch, see ticket 7']]);
  } finally {
    await restarted.stop();
  }
  const copied = [];
  for await (const r of readRecords(eventLogDir(copy))) copied.push(r);
  assert.equal(copied[target - 1].status, RecordStatus.Quarantined);
  assert.equal(copied[target - 1].path, '/new_mempool_tx');
  assert.equal(copied[target - 1].body.toString(), rows[target - 1].payload, 'the body bytes are kept');
});

test('quarantine in an import: the refused entry of a large batch is named exactly; after the quarantine the same import completes', { timeout: 600_000 }, async () => {
  const all = lines();
  const dir = tempDataDir();
  const head = join(tempDataDir(), 'head.tsv');
  const tail = join(tempDataDir(), 'tail.tsv');
  writeFileSync(head, `${all.slice(0, 5).join('\n')}\n`);
  writeFileSync(tail, `${all.slice(5).join('\n')}\n`);
  assert.equal((await script('import-events', ['--file', head], dir)).code, 0);
  // A tx of a block in the middle of the second file: its block is the entry the store refuses.
  const rows = all.map((l) => parseTsvLine(l)!);
  const index = rows.findIndex((r, i) => i >= 12 && r.path === '/new_block' && (JSON.parse(r.payload) as { transactions: unknown[] }).transactions.length > 0);
  const txid = (JSON.parse(rows[index].payload) as { transactions: Array<{ txid: string }> }).transactions[0].txid;
  await withStore(dir, (store) => store.client.command({ query: `ALTER TABLE txs ADD CONSTRAINT refuse_one_block CHECK tx_id != '${txid}'` }));
  const failed = await script('import-events', ['--file', tail], dir);
  assert.equal(failed.code, 1, failed.output);
  const id = index + 1;
  assert.ok(failed.output.includes(`processing stopped at event log entry ${id} (/new_block, ${tail}:${index + 1 - 5}): storing its rows in txs failed:`), failed.output);
  assert.match(failed.output, /quarantine-event -- --id \d+/);
  const q = await script('quarantine-event', ['--id', String(id), '--reason', 'refused by the store'], dir);
  assert.equal(q.code, 0, q.output);
  const resumed = await script('import-events', ['--file', tail], dir);
  assert.equal(resumed.code, 0, resumed.output);
  assert.match(resumed.output, /1 quarantined/);
  // Its descendants wait for a parent that will not come: held, and the chain stops below it.
  const svc = await startService({ dataDir: dir });
  try {
    const s = (await waitForProcessing(svc.apiUrl)) as unknown as EventLogStatus & { event_log: { held_blocks?: { count: number } } };
    assert.equal(s.event_log.error, undefined);
    assert.equal(s.event_log.processed_id, all.length);
    const height = (JSON.parse(rows[index].payload) as { block_height: number }).block_height;
    assert.equal(s.chain_tip.block_height, height - 1);
    assert.equal(s.event_log.held_blocks?.count, 12 - height);
  } finally {
    await svc.stop();
  }
});
