// Test helpers for the serving store: a recorded log imported into a fresh one, and the equality
// check against ClickHouse (run on a stopped service's data directory).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHARED, runScript, tempDataDir } from './service.ts';
import { openServingStore, servingDir, type ServingStore } from '../serving/store.ts';

/** A fixture of ../shared imported with `import-events` into a fresh data directory, and that
 *  directory's serving store opened read-only (the caller closes it). */
export async function importedServingStore(fixture: string, prefix = 'imported-'): Promise<{ dataDir: string; store: ServingStore }> {
  const dataDir = tempDataDir(prefix);
  const imported = await runScript('src/cli/import-events.ts', ['--file', join(SHARED, 'fixtures', fixture)], { STACKS_API_DATA_DIR: dataDir });
  assert.equal(imported.code, 0, imported.output);
  return { dataDir, store: openServingStore(servingDir(dataDir), { readOnly: true }) };
}

/** Runs `npm run serving-check` on the data dir; asserts it compared answers and found no difference. */
export async function assertServingEqualsClickHouse(dataDir: string, sample = 30): Promise<number> {
  const r = await runScript('src/cli/serving-check/cli.ts', ['--sample', String(sample)], { STACKS_API_DATA_DIR: dataDir });
  const summary = /(\d+) passed, (\d+) failed/.exec(r.output);
  assert.ok(summary, `serving-check printed no summary:\n${r.output.slice(-3000)}`);
  const [passed, failed] = [Number(summary[1]), Number(summary[2])];
  assert.equal(failed, 0, `serving store differs from ClickHouse:\n${r.output.split('\n').filter((l) => !l.startsWith('serving-check:')).slice(0, 60).join('\n')}`);
  assert.equal(r.code, 0, r.output.slice(-2000));
  assert.ok(passed > 0, 'no answer was compared');
  return passed;
}
