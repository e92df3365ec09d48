import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, closeSync, openSync, readdirSync, statSync, writeSync } from 'node:fs';
import { tempDataDir } from '../../testing/service.ts';
import { join } from 'node:path';
import { EventLogWriter } from './writer.ts';
import { readRecords } from './reader.ts';
import { RecordStatus } from './record.ts';
import { listSegments } from './segments.ts';
import { compressSegment } from './segment-compress.ts';
import { compressSealed } from '../../testing/event-log.ts';

const tmp = () => tempDataDir('evlog-');

async function readAll(dir: string, afterId = 0) {
  const out = [];
  for await (const r of readRecords(dir, { afterId })) out.push(r);
  return out;
}

test('appends are read back in id order with path, status, note and body intact', async () => {
  const dir = tmp();
  const w = await EventLogWriter.open(dir);
  const ids = await Promise.all([
    w.append({ path: '/new_block', body: Buffer.from('{"a":1}') }),
    w.append({ path: '/new_burn_block', body: Buffer.from('{"b":2}'), receivedAt: 1234 }),
    w.append({ path: '/new_mempool_tx', body: Buffer.from('not json'), status: RecordStatus.Rejected, note: 'body is not JSON' }),
  ]);
  assert.deepEqual(ids, [1, 2, 3]);
  assert.equal(w.durableId, 3);
  await w.close();
  const recs = await readAll(dir);
  assert.deepEqual(recs.map((r) => [r.id, r.path, r.status, r.note, r.body.toString()]), [
    [1, '/new_block', RecordStatus.Accepted, '', '{"a":1}'],
    [2, '/new_burn_block', RecordStatus.Accepted, '', '{"b":2}'],
    [3, '/new_mempool_tx', RecordStatus.Rejected, 'body is not JSON', 'not json'],
  ]);
  assert.equal(recs[1].receivedAt, 1234);
  assert.deepEqual((await readAll(dir, 2)).map((r) => r.id), [3]);
});

test('reopening continues the id sequence and drops a torn tail', async () => {
  const dir = tmp();
  const w = await EventLogWriter.open(dir);
  await w.append({ path: '/x', body: Buffer.from('one') });
  await w.append({ path: '/x', body: Buffer.from('two') });
  await w.close();
  const seg = join(dir, readdirSync(dir)[0]);
  const before = statSync(seg).size;
  // A crash in the middle of writing record 3: header and part of the body only.
  appendFileSync(seg, Buffer.concat([Buffer.from('SEV1'), Buffer.alloc(30, 1)]));
  const w2 = await EventLogWriter.open(dir);
  assert.equal(statSync(seg).size, before);
  assert.equal(await w2.append({ path: '/y', body: Buffer.from('three') }), 3);
  await w2.close();
  assert.deepEqual((await readAll(dir)).map((r) => r.body.toString()), ['one', 'two', 'three']);
});

test('a large body round-trips byte for byte', async () => {
  const dir = tmp();
  const w = await EventLogWriter.open(dir);
  const body = Buffer.alloc(20 * 1024 * 1024);
  for (let i = 0; i < body.length; i += 4096) body[i] = i % 251;
  await w.append({ path: '/new_block', body });
  await w.close();
  const [r] = await readAll(dir);
  assert.ok(r.body.equals(body));
});

test('records across and beyond the 8 MiB read chunks come back whole, from any starting id', async () => {
  const dir = tmp();
  const w = await EventLogWriter.open(dir);
  // Sizes chosen so records straddle chunk edges, one body is larger than a chunk, and small ones follow.
  const sizes = [3_000_000, 3_000_000, 3_000_000, 9_000_000, 10, 5_000_000, 1, 4_000_000];
  const bodies = sizes.map((n, i) => {
    const b = Buffer.alloc(n);
    for (let j = 0; j < n; j += 997) b[j] = (i * 31 + j) % 256;
    return b;
  });
  for (const body of bodies) await w.append({ path: '/new_block', body });
  await w.close();
  for (const afterId of [0, 1, 3, 4, 7]) {
    const recs = await readAll(dir, afterId);
    assert.deepEqual(recs.map((r) => r.id), bodies.map((_, i) => i + 1).filter((id) => id > afterId));
    for (const r of recs) assert.ok(r.body.equals(bodies[r.id - 1]), `body of record ${r.id} read after ${afterId}`);
  }
  const scanned = [];
  for await (const r of readRecords(dir, { withBody: false })) scanned.push([r.id, r.path, r.body.length]);
  assert.deepEqual(scanned, bodies.map((_, i) => [i + 1, '/new_block', 0]));
  // A torn record at the end of the file stops the read at the last whole one.
  const seg = join(dir, readdirSync(dir)[0]);
  appendFileSync(seg, Buffer.concat([Buffer.from('SEV1'), Buffer.alloc(60, 0)]));
  assert.equal((await readAll(dir, 6)).map((r) => r.id).join(), '7,8');
});

test('reading on from a known position starts there, across segment ends, and a position that does not hold is ignored', async () => {
  const dir = tmp();
  // Segments of a few records each, so some positions are a segment's end.
  const w = await EventLogWriter.open(dir, 150);
  for (let i = 1; i <= 12; i++) await w.append({ path: '/new_block', body: Buffer.from(`{"n":${i},"pad":"${'x'.repeat(i * 3)}"}`) });
  await w.close();
  assert.ok(readdirSync(dir).length >= 4, 'several segments');
  const all = await readAll(dir);
  const nextOf = (r: (typeof all)[number]) => ({ segment: r.position.segment, offset: r.position.offset + r.size });
  const ids = async (afterId: number, at: { segment: number; offset: number }) => {
    const out = [];
    for await (const r of readRecords(dir, { afterId, at })) out.push(`${r.id}:${r.body.toString()}`);
    return out;
  };
  for (const r of all.slice(0, -1)) {
    const expected = all.filter((x) => x.id > r.id).map((x) => `${x.id}:${x.body.toString()}`);
    assert.deepEqual(await ids(r.id, nextOf(r)), expected, `after ${r.id}, from its end`);
    // Positions that do not hold: the record itself, another segment, the middle of a record.
    assert.deepEqual(await ids(r.id, r.position), expected, `after ${r.id}, from its own start`);
    assert.deepEqual(await ids(r.id, { segment: 999, offset: 0 }), expected);
    assert.deepEqual(await ids(r.id, { segment: r.position.segment, offset: r.position.offset + 3 }), expected);
  }
  // The position is used, not just checked: with the record before it unreadable, a scan from the
  // segment's start stops there, and reading from the position does not.
  const first = all.find((r, i) => all[i + 1]?.position.segment === r.position.segment)!;
  assert.ok(first, 'a segment holds two records');
  const fd = openSync(join(dir, `${String(first.position.segment).padStart(16, '0')}.seg`), 'r+');
  writeSync(fd, Buffer.from('XXXX'), 0, 4, first.position.offset);
  closeSync(fd);
  assert.deepEqual((await readAll(dir, first.id)).map((r) => r.id).includes(first.id + 1), false);
  assert.deepEqual((await ids(first.id, nextOf(first))).map((t) => Number(t.split(':')[0])), all.filter((r) => r.id > first.id).map((r) => r.id));
});

test('a log whose newest segment is compressed goes on in a new segment, the id sequence unbroken', async () => {
  const dir = tmp();
  const w = await EventLogWriter.open(dir, 100);
  for (let i = 1; i <= 5; i++) await w.append({ path: '/new_block', body: Buffer.from(`{"n":${i},"pad":"${'x'.repeat(80)}"}`) });
  await w.close();
  const segments = listSegments(dir);
  const last = segments.at(-1)!;
  // Never so in the service (the newest segment is the one written); made here by hand.
  await compressSegment(dir, last.firstId, { lastId: 5 });
  assert.ok(listSegments(dir).at(-1)!.compressed);
  const w2 = await EventLogWriter.open(dir, 100);
  assert.equal(await w2.append({ path: '/new_block', body: Buffer.from('six') }), 6);
  await w2.close();
  assert.deepEqual(listSegments(dir).at(-1), { firstId: 6, path: join(dir, '0000000000000006.seg'), compressed: false });
  assert.deepEqual((await readAll(dir)).map((r) => r.id), [1, 2, 3, 4, 5, 6]);
});

test('sealing starts a new segment, so the last one written can be compressed once processed; appends go on in the new one', async () => {
  const dir = tmp();
  const w = await EventLogWriter.open(dir);
  for (let i = 1; i <= 3; i++) await w.append({ path: '/new_block', body: Buffer.from(`{"n":${i}}`) });
  w.seal();
  w.seal(); // nothing written since: no empty segment after the empty one
  assert.deepEqual(listSegments(dir).map((s) => s.firstId), [1, 4]);
  await compressSealed(dir, 3);
  assert.deepEqual(listSegments(dir).map((s) => [s.firstId, s.compressed]), [[1, true], [4, false]]);
  assert.equal(await w.append({ path: '/new_block', body: Buffer.from('{"n":4}') }), 4);
  await w.close();
  const w2 = await EventLogWriter.open(dir);
  assert.equal(await w2.append({ path: '/new_block', body: Buffer.from('{"n":5}') }), 5);
  await w2.close();
  assert.deepEqual((await readAll(dir)).map((r) => r.body.toString()), [1, 2, 3, 4, 5].map((n) => `{"n":${n}}`));
});
