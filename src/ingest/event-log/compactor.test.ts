// The compactor compresses sealed segments once processed and no others; a compression stopped at
// any step (a crash) leaves every record readable exactly once, and the next start cleans up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tempDataDir } from '../../testing/service.ts';
import { compressSealed, readAll, recordFacts, sampleInputs, segmentNames, writeLog, type ReadBack } from '../../testing/event-log.ts';
import { EventLogCompactor } from './compactor.ts';
import { compressSegment, SimulatedCrash, type CompressStep } from './segment-compress.ts';
import { compressedSegmentPath, compressedTempPath, listSegments, segmentPath } from './segments.ts';
import { EventLogWriter } from './writer.ts';

const SEGMENT_BYTES = 1024 * 1024;
const facts = (rs: ReadBack[]) => rs.map(recordFacts);

async function sampleLog(n = 40): Promise<{ dir: string; before: ReadBack[] }> {
  const dir = tempDataDir('evlog-c-');
  await writeLog(dir, sampleInputs(n, { seed: 5 }), SEGMENT_BYTES);
  return { dir, before: await readAll(dir) };
}

test('only segments that are sealed and wholly processed are compressed; the newest never is', async () => {
  const { dir, before } = await sampleLog();
  const segments = listSegments(dir);
  assert.ok(segments.length >= 4, `segments: ${segments.length}`);
  // Processed up to the middle of the third segment: the first two only.
  await compressSealed(dir, segments[2].firstId + 1);
  assert.deepEqual(listSegments(dir).map((s) => s.compressed), segments.map((_, i) => i < 2));
  // Processed up to the last segment's last record but one.
  await compressSealed(dir, segments[3].firstId - 1);
  assert.deepEqual(listSegments(dir).map((s) => s.compressed), segments.map((_, i) => i < 3));
  await compressSealed(dir);
  assert.deepEqual(listSegments(dir).map((s) => s.compressed), segments.map((_, i) => i < segments.length - 1));
  assert.deepEqual(facts(await readAll(dir)), facts(before));
});

const STATES: Record<CompressStep, (name: string) => string[]> = {
  // A crash part-way through writing the temp file, before it is complete.
  frame: (n) => [n, `${n}z.tmp`],
  // Written and synced, not yet renamed.
  written: (n) => [n, `${n}z.tmp`],
  // Renamed, the `.seg` not yet removed: both forms with the same records.
  renamed: (n) => [n, `${n}z`],
};

for (const [step, leftFiles] of Object.entries(STATES) as Array<[CompressStep, (n: string) => string[]]>) {
  test(`a crash after the step "${step}" of a compression leaves every record readable once; the next start cleans up`, async () => {
    const { dir, before } = await sampleLog();
    const [first, second] = listSegments(dir);
    const name = segmentNames(dir)[0];
    await assert.rejects(compressSegment(dir, first.firstId, { lastId: second.firstId - 1, crashAfter: step }), SimulatedCrash);
    assert.deepEqual(segmentNames(dir).filter((n) => n.startsWith(name.slice(0, 16))), leftFiles(name).sort());
    assert.deepEqual(facts(await readAll(dir)), facts(before));
    // The log goes on: appended to, cleaned up and compressed by the next start.
    const w = await EventLogWriter.open(dir, SEGMENT_BYTES);
    assert.equal(await w.append({ path: '/new_block', body: Buffer.from('{"after":"crash"}') }), before.length + 1);
    await w.close();
    const lines = await compressSealed(dir);
    const leftover = step === 'renamed' ? name : `${name}z.tmp`;
    assert.ok(lines.some((l) => l.startsWith('event log: removed') && l.split(': ').at(-1)!.split(', ').includes(leftover)), lines.join('\n'));
    assert.ok(!segmentNames(dir).some((n) => n.endsWith('.tmp')));
    assert.ok(existsSync(compressedSegmentPath(dir, first.firstId)) && !existsSync(segmentPath(dir, first.firstId)));
    const after = await readAll(dir);
    assert.deepEqual(facts(after.slice(0, -1)), facts(before));
    assert.equal(after.at(-1)?.body.toString(), '{"after":"crash"}');
  });
}

test('a garbage temp file is ignored and removed; an incomplete .segz beside its .seg gives way to the .seg', async () => {
  const { dir, before } = await sampleLog();
  const [first, second, third] = listSegments(dir);
  writeFileSync(compressedTempPath(dir, first.firstId), Buffer.alloc(5000, 7));
  // An incomplete .segz (it cannot be one, being renamed only once synced; say the disk lost its end).
  await compressSegment(dir, second.firstId, { lastId: third.firstId - 1, crashAfter: 'renamed' }).catch(() => {});
  const z = compressedSegmentPath(dir, second.firstId);
  truncateSync(z, readFileSync(z).length - 10);
  const removed = (await compressSealed(dir, 0)).join('\n');
  assert.match(removed, new RegExp(`${segmentNames(dir)[0]}z\\.tmp`));
  assert.ok(existsSync(segmentPath(dir, second.firstId)) && !existsSync(z), 'the .seg is kept, the broken .segz removed');
  assert.deepEqual(facts(await readAll(dir)), facts(before));
});

test('a sealed segment with bytes after its last whole record is left plain, said once; the others are compressed', async () => {
  const { dir, before } = await sampleLog();
  const [first] = listSegments(dir);
  appendFileSync(segmentPath(dir, first.firstId), Buffer.from('SEV1 torn'));
  const lines: string[] = [];
  const c = EventLogCompactor.start(dir, { processedId: () => Number.MAX_SAFE_INTEGER, intervalMs: 3_600_000, progressMs: 3_600_000, log: (l) => lines.push(l) });
  await c.compressDue();
  await c.compressDue();
  await c.stop();
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(lines[0], new RegExp(`segment ${first.firstId} left uncompressed: .*bytes after its last whole record`));
  assert.deepEqual(listSegments(dir).map((s) => s.compressed), listSegments(dir).map((_, i, all) => i > 0 && i < all.length - 1));
  assert.deepEqual(facts(await readAll(dir)), facts(before));
});

test('a backlog logs its progress at most every progressMs, and its total', async () => {
  const quiet = await sampleLog();
  const loud = await sampleLog();
  const run = async (dir: string, progressMs: number) => {
    const lines: string[] = [];
    const c = EventLogCompactor.start(dir, { processedId: () => Number.MAX_SAFE_INTEGER, intervalMs: 3_600_000, progressMs, log: (l) => lines.push(l) });
    await c.compressDue();
    await c.stop();
    return lines;
  };
  assert.deepEqual(await run(quiet.dir, 3_600_000), []);
  const lines = await run(loud.dir, 0);
  const sealed = listSegments(loud.dir).length - 1;
  assert.equal(lines.length, sealed, lines.join('\n'));
  assert.match(lines[0], new RegExp(`compressing processed segments: 1/${sealed}, \\d+ -> \\d+ MiB`));
  assert.match(lines.at(-1)!, new RegExp(`compressed ${sealed} segments, \\d+ -> \\d+ MiB \\(\\d+\\.\\d%\\)`));
});

test('a compression given up part-way (shutdown) leaves the .seg and no temp file', async () => {
  const { dir, before } = await sampleLog();
  const [first, second] = listSegments(dir);
  assert.equal(await compressSegment(dir, first.firstId, { lastId: second.firstId - 1, stopping: () => true }), null);
  assert.ok(existsSync(segmentPath(dir, first.firstId)));
  assert.ok(!segmentNames(dir).some((n) => n.includes('segz')));
  assert.deepEqual(facts(await readAll(dir)), facts(before));
});

test('a log of large segments (the earlier 512 MiB) goes on in segments of the new size and is compressed once processed', async () => {
  const dir = tempDataDir('evlog-old-');
  const inputs = sampleInputs(30, { seed: 9 });
  await writeLog(dir, inputs.slice(0, 20), 512 * 1024 * 1024);
  assert.equal(listSegments(dir).length, 1);
  await writeLog(dir, inputs.slice(20), SEGMENT_BYTES);
  const [old, next] = listSegments(dir);
  assert.ok(next && next.firstId === 21, 'the next append starts a segment');
  const before = await readAll(dir);
  await compressSealed(dir, 20);
  assert.ok(listSegments(dir)[0].compressed && old.firstId === 1);
  assert.deepEqual(facts(await readAll(dir)), facts(before));
});
