// export-events writes the same file, byte for byte, before and after the log is compressed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScript, tempDataDir } from '../testing/service.ts';
import { compressSealed, sampleInputs, writeLog } from '../testing/event-log.ts';
import { locateRecord, quarantineRecord } from '../ingest/event-log/quarantine.ts';
import { listSegments } from '../ingest/event-log/segments.ts';

async function exportEvents(dataDir: string): Promise<Buffer> {
  const file = join(tempDataDir('export-'), 'events.tsv');
  const r = await runScript('src/cli/export-events.ts', ['--file', file], { STACKS_API_DATA_DIR: dataDir, STACKS_API_PROGRESS_MS: '600000' });
  assert.equal(r.code, 0, r.output);
  return readFileSync(file);
}

test('the export of a compressed log is byte for byte the export of the plain log', async () => {
  const dataDir = tempDataDir();
  const logDir = join(dataDir, 'events');
  mkdirSync(logDir);
  await writeLog(logDir, sampleInputs(40, { seed: 13 }), 1024 * 1024);
  quarantineRecord(logDir, (await locateRecord(logDir, 7))!, 'rows refused', 'the store said no');
  const plain = await exportEvents(dataDir);
  const rows = plain.toString('utf8').split('\n').filter(Boolean);
  assert.equal(rows.length, 40);
  assert.match(rows[6], /^7\t[^\t]+\t\/_quarantined\t/);
  await compressSealed(logDir);
  const segments = listSegments(logDir);
  assert.ok(segments.length >= 4 && segments.slice(0, -1).every((s) => s.compressed), 'all but the newest segment compressed');
  assert.ok((await exportEvents(dataDir)).equals(plain), 'the same export');
});
