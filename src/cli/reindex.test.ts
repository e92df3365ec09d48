// A data directory of the earlier layout, made from a recorded log: every command that opens it
// refuses it with the one line naming `npm run reindex` and writes nothing, export-events still
// reads it, and the re-index brings it to layout 2 with the stores and answers of a fresh import
// (and the fixture's goldens). A new data directory starts without complaint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SHARED, runScript, startService, tempDataDir, waitForProcessing } from '../testing/service.ts';
import { makeLayout1Dir } from '../testing/layout-1-dir.ts';
import { eventLogHash, storeDigest } from '../testing/data-dir-state.ts';
import { readGoldenFile } from '../testing/goldens.ts';
import { checkGoldenFamilies } from '../http/goldens/families.ts';
import { fixtureNetwork } from '../testing/rosetta-mesh-check.ts';
import { layoutMarkerFile } from '../ingest/data-layout.ts';

// A reorg with microblocks on both sides: the re-index must choose the same canonical chain.
const FIXTURE = 'mainnet-reorg-scenario2';
const FILE = join(SHARED, 'fixtures', `${FIXTURE}.tsv`);
const ENV = { STACKS_CHAIN_ID: fixtureNetwork(FIXTURE).chainId, STACKS_CORE_EVENT_PORT: '0', STACKS_BLOCKCHAIN_API_PORT: '0', STACKS_BLOCKCHAIN_API_HOST: '127.0.0.1' };

/** Runs a project script on `dataDir`; a command that does not end within 2 minutes is killed. */
function run(script: string, args: string[], dataDir: string, env: Record<string, string> = {}) {
  const deadline = Date.now() + 120_000;
  return runScript(script, args, { ...ENV, STACKS_API_DATA_DIR: dataDir, ...env }, () => Date.now() > deadline);
}

/** Every file below `dir` with its size and modification time: what "nothing written" compares. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).map((e) => {
    const path = join(e.parentPath, e.name);
    const s = statSync(path);
    return `${relative(dir, path)} ${e.isFile() ? s.size : 'dir'} ${s.mtimeMs}`;
  }).sort();
}


/** Answers to the fixture's recorded GET URLs whose answers do not depend on the clock or the log's positions. */
async function answers(dataDir: string): Promise<Array<{ url: string; status: number; body: string }>> {
  // (Rosetta's recorded answers are to POSTs; /extended's status carries the log's positions.)
  const urls = [...readGoldenFile(FIXTURE).values()].filter((g) => !g.wallclock && !g.url.startsWith('/rosetta') && !/^\/(extended\/?(v1\/status)?)?$/.test(g.url)).map((g) => g.url);
  const svc = await startService({ dataDir, env: ENV });
  try {
    await waitForProcessing(svc.apiUrl);
    const out = [];
    for (const url of urls.filter((u, i) => i % 10 === 0)) {
      const res = await fetch(svc.apiUrl + url);
      out.push({ url, status: res.status, body: await res.text() });
    }
    return out;
  } finally {
    await svc.stop();
  }
}

test('a layout 1 data directory is refused by every command that opens it, and `npm run reindex` makes it layout 2 as a fresh import', async (t) => {
  const dir = tempDataDir('reindex-');
  const imported = await run('src/cli/import-events.ts', ['--file', FILE], dir);
  assert.equal(imported.code, 0, imported.output);
  const fresh = { digest: await storeDigest(dir, ENV), answers: await answers(dir) };
  assert.ok(fresh.answers.length > 50 && fresh.answers.filter((a) => a.status === 200).length > 40, `answers sampled: ${fresh.answers.length}`);

  await makeLayout1Dir(dir);
  const log = eventLogHash(dir);
  const before = snapshot(dir);
  const line = `configuration error: STACKS_API_DATA_DIR: ${dir} has data layout 1; this version reads layout 2: re-index it from its own event log with \`npm run reindex\` (about 12 minutes per million txs)`;
  for (const [script, args] of [
    ['src/main.ts', []],
    ['src/cli/import-events.ts', ['--file', FILE]],
    ['src/cli/import-events.ts', ['--file', FILE, '--wipe']],
    ['src/cli/quarantine-event.ts', ['--id', '1']],
    ['src/cli/rebuild-serving.ts', []],
    ['src/cli/serving-check/cli.ts', []],
  ] as const) {
    const r = await run(script, [...args], dir);
    assert.deepEqual({ code: r.code, output: r.output.trim() }, { code: 2, output: line }, `${script} ${args.join(' ')}`);
  }
  assert.deepEqual(snapshot(dir), before, 'nothing in the directory was written');
  // Reading the log needs no layout: it exports as it is.
  const exported = join(tempDataDir('reindex-export-'), 'events.tsv');
  const exp = await run('src/cli/export-events.ts', ['--file', exported], dir);
  assert.equal(exp.code, 0, exp.output);
  assert.equal(readFileSync(exported, 'utf8').trim().split('\n').length, readFileSync(FILE, 'utf8').trim().split('\n').length);

  // The second signal alone: a marker that says layout 2 over tables that are layout 1's.
  writeFileSync(layoutMarkerFile(dir), '{"layout": 2}');
  const tables = await run('src/main.ts', [], dir);
  assert.deepEqual({ code: tables.code, output: tables.output.trim() }, {
    code: 2,
    output: `configuration error: STACKS_API_DATA_DIR: ${dir} holds ClickHouse tables of data layout 1 (schema_migrations lists 0004_tx_reads.sql and 20 more, which this version does not have); this version reads layout 2: re-index it from its own event log with \`npm run reindex\` (about 12 minutes per million txs)`,
  });
  rmSync(layoutMarkerFile(dir));

  const reindexed = await run('src/cli/reindex.ts', [], dir, { STACKS_API_PROGRESS_MS: '1' });
  assert.equal(reindexed.code, 0, reindexed.output);
  assert.match(reindexed.output, /^reindex: (\d+)\/\1 entries \(100\.0%\) \d+ entries\/s, ETA 0m00s$/m, 'progress with rate and ETA');
  assert.match(reindexed.output, new RegExp(`${dir} is re-indexed: data layout 2\n$`));
  assert.deepEqual(JSON.parse(readFileSync(layoutMarkerFile(dir), 'utf8')), { layout: 2 });
  assert.equal(eventLogHash(dir), log, 'the event log is not modified');
  assert.deepEqual(await storeDigest(dir, ENV), fresh.digest, 'every table as a fresh import left it');
  assert.deepEqual(await answers(dir), fresh.answers);

  const svc = await startService({ dataDir: dir, env: ENV });
  try {
    await waitForProcessing(svc.apiUrl);
    await checkGoldenFamilies(t, svc.apiUrl, FIXTURE);
  } finally {
    await svc.stop();
  }
  const again = await run('src/cli/reindex.ts', [], dir);
  assert.deepEqual({ code: again.code, output: again.output.trim() }, { code: 0, output: `${dir} is already data layout 2: nothing to re-index (--force re-indexes it anyway)` });
});

test('a new data directory starts without complaint and is marked layout 2', async () => {
  const dir = join(tempDataDir('reindex-new-'), 'data');
  for (let start = 0; start < 2; start++) {
    const svc = await startService({ dataDir: dir });
    try {
      assert.doesNotMatch(svc.output(), /configuration error|layout/);
    } finally {
      await svc.stop();
    }
    assert.deepEqual(JSON.parse(readFileSync(layoutMarkerFile(dir), 'utf8')), { layout: 2 });
  }
  const missing = join(tempDataDir('reindex-new-'), 'data');
  const nothing = await run('src/cli/reindex.ts', [], missing);
  assert.deepEqual({ code: nothing.code, output: nothing.output.trim() }, { code: 0, output: `nothing to re-index: ${missing} is a new data directory (layout 2)` });
});
