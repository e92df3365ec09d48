// Import is crash-safe: SIGKILL at random points, re-run the same command, and the final state is
// the state of an uninterrupted import — no event lost, none doubled. Export → import round-trips.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { SHARED, runScript, tempDataDir } from '../testing/service.ts';
import { readRecords } from '../ingest/event-log/reader.ts';

const FIXTURE = join(SHARED, 'fixtures', 'stackerdb-sample-events.tsv.gz');

const run = (script: string, args: string[], dataDir: string, killWhen?: () => boolean) => runScript(script, args, { STACKS_API_DATA_DIR: dataDir }, killWhen);

const importEvents = (dataDir: string, file: string, killWhen?: () => boolean) => run('src/cli/import-events.ts', ['--file', file], dataDir, killWhen);

/** Bytes in the event log's plain segments so far (all of it while appending), and the processor's checkpoint. */
function progressOf(dataDir: string): { logBytes: number; committed: number; pending: boolean } {
  const dir = join(dataDir, 'events');
  if (!existsSync(dir)) return { logBytes: 0, committed: 0, pending: false };
  const logBytes = readdirSync(dir).filter((f) => f.endsWith('.seg')).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
  try {
    const c = JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8')) as { committed: number; pending: unknown };
    return { logBytes, committed: c.committed, pending: c.pending !== null };
  } catch {
    return { logBytes, committed: 0, pending: false };
  }
}

async function digest(dataDir: string): Promise<Record<string, { rows: number; hash: string }>> {
  const r = await run('src/cli/db-digest.ts', [], dataDir);
  assert.equal(r.code, 0, r.output);
  return JSON.parse(r.output.trim().split('\n').at(-1)!);
}

test('SIGKILL at random points during an import, then resuming, gives the uninterrupted state', async () => {
  const clean = tempDataDir();
  const full = await importEvents(clean, FIXTURE);
  assert.equal(full.code, 0, full.output);
  const expected = await digest(clean);
  assert.ok(expected.blocks.rows > 400 && expected.stackerdb_chunks.rows > 3000, 'the fixture was imported');

  // The log's size as appended (after a complete import it is compressed).
  let totalLog = 0;
  for await (const r of readRecords(join(clean, 'events'), { withBody: false })) totalLog += r.size;
  const entries = progressOf(clean).committed;
  const crashed = tempDataDir();
  // Random kill points, by progress rather than by time so they land on any machine: part-way
  // through appending, with a batch pending, and part-way through processing. Printed for replay.
  const points = [Math.random() * 0.5, 0.5 + Math.random() * 0.5].map((f) => Math.floor(f * totalLog));
  const processed = Math.floor((0.2 + Math.random() * 0.6) * entries);
  console.log(`kill at log bytes ${points.join(', ')}; at a pending batch; at ${processed} entries processed`);
  const kills: Array<() => boolean> = [
    ...points.map((bytes) => () => progressOf(crashed).logBytes >= bytes),
    () => progressOf(crashed).pending,
    () => progressOf(crashed).committed >= processed,
  ];
  let killed = 0;
  for (const when of kills) {
    const r = await importEvents(crashed, FIXTURE, when);
    if (r.signal === 'SIGKILL') killed++;
    else assert.equal(r.code, 0, r.output);
  }
  assert.ok(killed >= 2, `runs killed part-way: ${killed}`);
  const finish = await importEvents(crashed, FIXTURE);
  assert.equal(finish.code, 0, finish.output);
  assert.deepEqual(await digest(crashed), expected);
});

test('export then import gives the same state', async () => {
  const source = tempDataDir();
  const first = await importEvents(source, join(SHARED, 'fixtures', 'regtest-env-pox-4-out-of-order-multisig-tx.tsv'));
  assert.equal(first.code, 0, first.output);
  const file = join(tempDataDir(), 'export.tsv');
  const exp = await run('src/cli/export-events.ts', ['--file', file], source);
  assert.equal(exp.code, 0, exp.output);
  const target = tempDataDir();
  const second = await importEvents(target, file);
  assert.equal(second.code, 0, second.output);
  assert.deepEqual(await digest(target), await digest(source));
});
