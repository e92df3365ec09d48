// The first signal of a data layout, the marker file, and the one line each kind of directory gets:
// real directories, a real event log, a real embedded store for the second signal's wording.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config/config.ts';
import { openStore } from '../storage/client.ts';
import { EventLogWriter } from './event-log/writer.ts';
import { detectDataDirLayout, layoutMarkerFile } from './data-layout.ts';
import { checkDataDirLayout, checkStoreLayout, openDataDir } from './layout-guard.ts';
import { writeLayout1Migrations } from '../testing/layout-1-dir.ts';
import { tempDataDir } from '../testing/service.ts';

const configFor = (dataDir: string, env: Record<string, string> = {}) => loadConfig({ STACKS_API_DATA_DIR: dataDir, ...env });

/** The ConfigError line `check` throws (`configuration error: <this>` is printed), without its
 *  variable (always STACKS_API_DATA_DIR here). */
function refusal(check: () => unknown): string {
  try {
    check();
  } catch (e) {
    assert.ok(e instanceof ConfigError, String(e));
    assert.equal(e.variable, 'STACKS_API_DATA_DIR');
    return e.message.slice('STACKS_API_DATA_DIR: '.length);
  }
  assert.fail('not refused');
}

async function dirWithEventLog(): Promise<string> {
  const dir = tempDataDir('layout-');
  const log = await EventLogWriter.open(join(dir, 'events'));
  await log.append({ path: '/new_burn_block', body: Buffer.from('{}') });
  await log.close();
  return dir;
}

test('a new data directory (missing, empty, or holding nothing of ours) is layout 2, marked as such when opened', () => {
  const missing = join(tempDataDir('layout-'), 'not-yet');
  const empty = tempDataDir('layout-');
  const unrelated = tempDataDir('layout-');
  writeFileSync(join(unrelated, 'notes.txt'), 'x');
  for (const dir of [missing, empty, unrelated]) {
    assert.deepEqual(detectDataDirLayout(dir), { kind: 'new' }, dir);
    const opened = openDataDir(configFor(dir), { lock: true });
    assert.deepEqual(opened.layout, { kind: 'new' });
    assert.deepEqual(JSON.parse(readFileSync(layoutMarkerFile(dir), 'utf8')), { layout: 2 });
    opened.unlock();
    assert.deepEqual(detectDataDirLayout(dir), { kind: 'current' }, 'marked before anything else is written');
  }
});

test('an event log or stores without a marker are layout 1: refused with the command named, before anything is written', async () => {
  const dir = await dirWithEventLog();
  const before = readdirSync(dir);
  const line = `${dir} has data layout 1; this version reads layout 2: re-index it from its own event log with \`npm run reindex\` (about 12 minutes per million txs)`;
  assert.equal(refusal(() => checkDataDirLayout(configFor(dir))), line);
  assert.equal(refusal(() => openDataDir(configFor(dir), { lock: true })), line);
  assert.deepEqual(readdirSync(dir), before, 'no marker and no lock left behind');

  // Stores without a log of their own cannot be re-indexed here (unless the process follows a log).
  const storesOnly = tempDataDir('layout-');
  mkdirSync(join(storesOnly, 'serving'));
  assert.equal(refusal(() => checkDataDirLayout(configFor(storesOnly))), `${storesOnly} has data layout 1; this version reads layout 2, and it has no event log to re-index from: start on a new data directory`);
  const follower = configFor(storesOnly, { STACKS_API_MODE: 'readonly', STACKS_API_FOLLOW_LOG: join(dir, 'events') });
  assert.match(refusal(() => checkDataDirLayout(follower)), /has data layout 1; this version reads layout 2: re-index it with `npm run reindex` \(a follower's stores are removed, and rebuilt from STACKS_API_FOLLOW_LOG at its next start\)$/);
});

test('the marker: a stopped re-index, one still processing, another layout, and a malformed marker', async () => {
  const dir = await dirWithEventLog();
  const mark = (text: string) => writeFileSync(layoutMarkerFile(dir), text);
  mark('{"layout": 2, "reindex": "wiping"}');
  assert.equal(refusal(() => checkDataDirLayout(configFor(dir))), `${dir} is part-way through a re-index to layout 2 (it was stopped): finish it with \`npm run reindex\``);
  mark('{"layout": 2, "reindex": "processing"}');
  assert.deepEqual(checkDataDirLayout(configFor(dir)), { kind: 'current', reindex: 'processing' });
  mark('{"layout": 3}');
  assert.match(refusal(() => checkDataDirLayout(configFor(dir))), /has data layout 3; this version reads layout 2: run the version that wrote it, or re-index it from its own event log with `npm run reindex`/);
  for (const [text, problem] of [
    ['{"layout": 2', 'not JSON'],
    ['{"layout": "2"}', 'no positive whole "layout"'],
    ['{"layout": 2, "reindex": "half"}', 'unknown "reindex" phase "half"'],
  ]) {
    mark(text);
    assert.equal(refusal(() => checkDataDirLayout(configFor(dir))), `${layoutMarkerFile(dir)} is not a layout marker (expected {"layout": 2}): ${problem}`);
  }
  assert.equal(existsSync(join(dir, 'LOCK')), false);
});

test('tables whose schema_migrations names layout 1 files are refused, embedded or on a server', async () => {
  const dir = tempDataDir('layout-');
  const store = await openStore({ database: 'stacks' }, dir);
  try {
    const lists = '(schema_migrations lists 0004_tx_reads.sql and 20 more, which this version does not have)';
    await checkStoreLayout(store, configFor(dir));
    await writeLayout1Migrations(store);
    await assert.rejects(checkStoreLayout(store, configFor(dir)), (e: Error) =>
      e instanceof ConfigError && e.message === `STACKS_API_DATA_DIR: ${dir} holds ClickHouse tables of data layout 1 ${lists}; this version reads layout 2: re-index it from its own event log with \`npm run reindex\` (about 12 minutes per million txs)`);
    // The same engine's answer worded as a server database's, for its writer and for a reader.
    const server = { ...store, embedded: false };
    const writer = configFor(dir, { CLICKHOUSE_URL: 'http://clickhouse.internal:8123' });
    await assert.rejects(checkStoreLayout(server, writer), (e: Error) =>
      e.message === `CLICKHOUSE_DATABASE: stacks on clickhouse.internal:8123 has tables of data layout 1 ${lists}; this version reads layout 2: re-index it from the event log in ${dir} with \`npm run reindex\` (about 12 minutes per million txs)`);
    const reader = configFor(dir, { CLICKHOUSE_URL: 'http://clickhouse.internal:8123', STACKS_API_MODE: 'readonly' });
    await assert.rejects(checkStoreLayout(server, reader), (e: Error) => e.message.endsWith(`re-index it with \`npm run reindex\` where its writer's data directory is (about 12 minutes per million txs)`));
  } finally {
    await store.client.close();
  }
});
