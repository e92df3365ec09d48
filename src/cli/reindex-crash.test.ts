// `npm run reindex` killed (SIGKILL) part-way and run again finishes the job: stopped while it
// removes the old stores, the directory is refused by `npm start` naming the command to finish it;
// stopped in the middle of a batch after some progress, the next run resumes from the checkpoint.
// Either way the result is the store a fresh import leaves, and the event log is never modified.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED, runScript, tempDataDir } from '../testing/service.ts';
import { makeLayout1Dir } from '../testing/layout-1-dir.ts';
import { eventLogHash, storeDigest } from '../testing/data-dir-state.ts';
import { layoutMarkerFile } from '../ingest/data-layout.ts';

// 5,108 entries; batches of 500 here, so a run can be stopped with several behind it.
const FIXTURE = join(SHARED, 'fixtures', 'stackerdb-sample-events.tsv.gz');
const ENV = { STACKS_API_TEST_BATCH_ENTRIES: '500', STACKS_CORE_EVENT_PORT: '0', STACKS_BLOCKCHAIN_API_PORT: '0', STACKS_BLOCKCHAIN_API_HOST: '127.0.0.1' };

function run(script: string, args: string[], dataDir: string, killWhen?: () => boolean) {
  const deadline = Date.now() + 180_000;
  return runScript(script, args, { ...ENV, STACKS_API_DATA_DIR: dataDir }, () => Date.now() > deadline || (killWhen?.() ?? false));
}

const reindex = (dataDir: string, killWhen?: () => boolean) => run('src/cli/reindex.ts', [], dataDir, killWhen);

/** The marker's text and the processor's checkpoint, as they are on disk now. */
function state(dataDir: string): { marker: string; committed: number; pending: boolean } {
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  let checkpoint = { committed: 0, pending: null as unknown };
  try {
    checkpoint = JSON.parse(read(join(dataDir, 'events', 'checkpoint.json')) || '{"committed":0,"pending":null}');
  } catch {
    /* being replaced */
  }
  return { marker: read(layoutMarkerFile(dataDir)), committed: checkpoint.committed, pending: checkpoint.pending !== null };
}


test('a re-index killed while removing the old stores, and again mid-batch, finishes when run again, as a fresh import', async () => {
  const dir = tempDataDir('reindex-crash-');
  const imported = await run('src/cli/import-events.ts', ['--file', FIXTURE], dir);
  assert.equal(imported.code, 0, imported.output);
  const expected = await storeDigest(dir, ENV);
  const entries = state(dir).committed;
  assert.ok(entries > 5000, `entries: ${entries}`);
  await makeLayout1Dir(dir);
  const log = eventLogHash(dir);

  // Killed while wiping: refused until the re-index is run again.
  const wiping = await reindex(dir, () => state(dir).marker.includes('"wiping"'));
  assert.equal(wiping.signal, 'SIGKILL', wiping.output);
  const refused = await run('src/main.ts', [], dir);
  assert.deepEqual({ code: refused.code, output: refused.output.trim() }, {
    code: 2,
    output: `configuration error: STACKS_API_DATA_DIR: ${dir} is part-way through a re-index to layout 2 (it was stopped): finish it with \`npm run reindex\``,
  });

  // Killed in the middle of a batch with some batches stored.
  const midway = await reindex(dir, () => {
    const s = state(dir);
    return s.marker.includes('"processing"') && s.committed >= 1000 && s.pending;
  });
  assert.equal(midway.signal, 'SIGKILL', midway.output);
  const stopped = state(dir);
  assert.ok(stopped.committed >= 1000 && stopped.committed < entries && stopped.pending, JSON.stringify(stopped));
  assert.deepEqual(JSON.parse(stopped.marker), { layout: 2, reindex: 'processing' });

  const finished = await reindex(dir);
  assert.equal(finished.code, 0, finished.output);
  assert.match(finished.output, new RegExp(`from its event log: ${entries} entries, resuming after entry ${stopped.committed}\n`), 'it resumed instead of starting over');
  assert.deepEqual(JSON.parse(state(dir).marker), { layout: 2 });
  assert.equal(state(dir).committed, entries);
  assert.equal(eventLogHash(dir), log, 'the event log is not modified');
  assert.deepEqual(await storeDigest(dir, ENV), expected);
});
