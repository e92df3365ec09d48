// A compressed segment holds the records of its `.seg` exactly, at the same positions; one record is
// read by inflating one frame; plain and compressed segments read as one log, also while a reader
// is part-way through a segment that gets compressed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, writeSync } from 'node:fs';
import { tempDataDir } from '../../testing/service.ts';
import { compressSealed, readAll, recordFacts, sampleInputs, segmentNames, writeLog, type ReadBack } from '../../testing/event-log.ts';
import { readRecord, readRecords } from './reader.ts';
import { compressSegment, FRAME_BYTES } from './segment-compress.ts';
import { CompressedSegment } from './compressed-segment.ts';
import { compressedSegmentPath, listSegments } from './segments.ts';
import type { Frame } from './segz-format.ts';
import { EventLogWriter } from './writer.ts';
import { RecordStatus } from './record.ts';

const SEGMENT_BYTES = 3 * 1024 * 1024;

/** A log of ~20 MB in 3 MiB segments (frames of up to 1 MiB, and records over 1 MiB, each a frame). */
async function sampleLog(): Promise<{ dir: string; before: ReadBack[] }> {
  const dir = tempDataDir('evlog-z-');
  await writeLog(dir, sampleInputs(90, { bigEvery: 15 }), SEGMENT_BYTES);
  return { dir, before: await readAll(dir) };
}

const facts = (rs: ReadBack[]) => rs.map(recordFacts);

test('compressed, every sealed segment reads back record for record: ids, times, paths, statuses, notes, bodies, positions', async () => {
  const { dir, before } = await sampleLog();
  const plain = segmentNames(dir);
  assert.ok(plain.length >= 4, `segments: ${plain.join(' ')}`);
  assert.ok(before.some((r) => r.status === RecordStatus.Rejected && r.note.includes('ünïcode')));
  await compressSealed(dir);
  // Every segment but the newest (the one being written) is replaced by its compressed form.
  assert.deepEqual(segmentNames(dir), [...plain.slice(0, -1).map((n) => `${n}z`), plain.at(-1)]);
  assert.deepEqual(facts(await readAll(dir)), facts(before));
  const frames: Frame[] = [];
  for (const seg of listSegments(dir).filter((s) => s.compressed)) {
    const z = await CompressedSegment.open(seg.path);
    frames.push(...z.index.frames);
    await z.close();
  }
  assert.ok(frames.length > 2 * (plain.length - 1), `frames: ${frames.length}`);
  const next = (i: number) => frames[i + 1]?.firstId;
  assert.ok(frames.some((f, i) => f.logicalLength > FRAME_BYTES && next(i) === f.firstId + 1), 'a record over 1 MiB is a frame of its own');
  assert.ok(frames.some((f, i) => next(i) !== undefined && next(i)! > f.firstId + 3), 'small records share a frame');
});

test('one record of a compressed segment is read by inflating the one frame that holds it', async () => {
  const { dir, before } = await sampleLog();
  await compressSealed(dir);
  for (const r of before) assert.deepEqual(recordFacts({ ...(await readRecord(dir, r.id))!, position: r.position, size: r.size }), recordFacts(r), `record ${r.id}`);
  // With a segment's first frame unreadable, the records of its other frames still read.
  const seg = listSegments(dir).find((s) => s.compressed)!;
  const z = await CompressedSegment.open(seg.path);
  await z.close();
  const [first, , third] = z.index.frames;
  assert.ok(third, 'the segment has three frames');
  const fd = openSync(compressedSegmentPath(dir, seg.firstId), 'r+');
  writeSync(fd, Buffer.alloc(first.compressedLength, 0xa5), 0, first.compressedLength, first.fileOffset);
  closeSync(fd);
  assert.equal((await readRecord(dir, third.firstId))?.body.toString('base64'), before[third.firstId - 1].body.toString('base64'));
  await assert.rejects(readRecord(dir, first.firstId), /frame 0/);
});

test('plain and compressed segments read as one log, from any id and from a known position', async () => {
  const { dir, before } = await sampleLog();
  const segments = listSegments(dir);
  // Every other sealed segment compressed: plain, compressed, plain, …
  for (let i = 0; i < segments.length - 1; i += 2) await compressSegment(dir, segments[i].firstId, { lastId: segments[i + 1].firstId - 1 });
  const kinds = listSegments(dir).map((s) => (s.compressed ? 'z' : 'p')).join('');
  assert.match(kinds, /^zpz/);
  for (const afterId of [0, 1, 14, 15, 16, 30, 44, 59, 89]) assert.deepEqual(facts(await readAll(dir, { afterId })), facts(before.filter((r) => r.id > afterId)), `after ${afterId}`);
  // A position taken before the compression (the end of a record: where the next starts) still
  // names the next record, whichever segment it is in, segment ends included.
  const endsSegment = (r: ReadBack) => before[r.id]?.position.segment !== r.position.segment;
  for (const r of before.slice(0, -1).filter((r) => r.id % 4 === 0 || endsSegment(r))) {
    const at = { segment: r.position.segment, offset: r.position.offset + r.size };
    const got = await readAll(dir, { afterId: r.id, untilId: r.id + 2, at });
    assert.deepEqual(facts(got), facts(before.filter((x) => x.id > r.id && x.id <= r.id + 2)), `after ${r.id} from its end`);
  }
});

test('a reader part-way through the log when segments are compressed under it misses and repeats nothing', async () => {
  const { dir, before } = await sampleLog();
  const segments = listSegments(dir);
  const second = segments[1].firstId;
  // The reader has listed the segments (all plain) and is inside the second one.
  const reader = readRecords(dir);
  const seen: ReadBack[] = [];
  while (seen.at(-1)?.id !== second + 1) seen.push((await reader.next()).value as ReadBack);
  // Then every sealed segment is compressed: the open one (read on from its open file), and those
  // after it (listed as `.seg`, found as `.segz`).
  await compressSealed(dir);
  assert.ok(listSegments(dir)[1].compressed, 'the segment being read was compressed');
  for await (const r of { [Symbol.asyncIterator]: () => reader }) seen.push(r);
  assert.deepEqual(facts(seen), facts(before));
});

test('a follower tailing the log (as the processor reads: from where it stopped) while it is written and compressed reads every record once', async () => {
  const dir = tempDataDir('evlog-tail-');
  const inputs = sampleInputs(120, { seed: 3, bigEvery: 20 });
  const w = await EventLogWriter.open(dir, SEGMENT_BYTES);
  const seen: ReadBack[] = [];
  let next: ReadBack['position'] | undefined;
  const poll = async () => {
    for await (const r of readRecords(dir, { afterId: seen.at(-1)?.id ?? 0, at: next })) {
      seen.push(r);
      next = { segment: r.position.segment, offset: r.position.offset + r.size };
    }
  };
  for (let i = 0; i < inputs.length; i += 4) {
    for (const input of inputs.slice(i, i + 4)) await w.append(input);
    // Compressed right away (as far as read) or before the follower gets to it (everything sealed).
    await compressSealed(dir, i % 8 === 0 ? seen.at(-1)?.id ?? 0 : Number.MAX_SAFE_INTEGER);
    await poll();
  }
  await w.close();
  assert.ok(listSegments(dir).filter((s) => s.compressed).length >= 4, 'segments were compressed as the follower read');
  assert.deepEqual(seen.map((r) => r.id), inputs.map((_, i) => i + 1));
  assert.deepEqual(facts(seen), facts(await readAll(dir)));
  assert.deepEqual(seen.map((r) => r.body.toString('base64')), inputs.map((x) => x.body.toString('base64')));
});
