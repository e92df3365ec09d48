// A quarantine marks an unprocessed record, whose segment is plain; the mark is kept when the
// segment is compressed once processed, and a record found in a compressed segment is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDataDir } from '../../testing/service.ts';
import { compressSealed, readAll, recordFacts, sampleInputs, writeLog } from '../../testing/event-log.ts';
import { locateRecord, quarantineRecord, readQuarantine } from './quarantine.ts';
import { RecordStatus } from './record.ts';
import { readRecord } from './reader.ts';
import { listSegments } from './segments.ts';

test('a quarantined record keeps its status, bytes and position when its segment is compressed; one in a compressed segment is refused', async () => {
  const dir = tempDataDir('evlog-q-');
  await writeLog(dir, sampleInputs(40, { seed: 11 }), 1024 * 1024);
  const segments = listSegments(dir);
  assert.ok(segments.length >= 4);
  // Processing stopped in the third segment; the record it stopped at is quarantined.
  const stoppedAt = segments[2].firstId + 1;
  const located = (await locateRecord(dir, stoppedAt))!;
  assert.equal(located.status, RecordStatus.Accepted);
  quarantineRecord(dir, located, 'rows refused', 'the store said no');
  const before = await readAll(dir);
  assert.equal(before[stoppedAt - 1].status, RecordStatus.Quarantined);
  // Processing went on past it; the segments up to it are compressed.
  await compressSealed(dir, segments[3].firstId - 1);
  assert.ok(listSegments(dir)[2].compressed);
  assert.deepEqual((await readAll(dir)).map(recordFacts), before.map(recordFacts));
  assert.equal((await readRecord(dir, stoppedAt))?.status, RecordStatus.Quarantined);
  assert.deepEqual((await locateRecord(dir, stoppedAt))?.position, located.position);
  // A record in a compressed segment (processed) is refused, and nothing is recorded for it.
  const processed = (await locateRecord(dir, segments[1].firstId))!;
  assert.throws(() => quarantineRecord(dir, processed, 'too late'), /compressed segment of the log: it is processed/);
  assert.deepEqual(readQuarantine(dir).map((q) => q.id), [stoppedAt]);
  assert.equal((await readRecord(dir, processed.id))?.status, processed.status);
});
