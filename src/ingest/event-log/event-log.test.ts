import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, statSync } from 'node:fs';
import { tempDataDir } from '../../testing/service.ts';
import { join } from 'node:path';
import { EventLogWriter } from './writer.ts';
import { readRecords } from './reader.ts';
import { RecordStatus } from './record.ts';

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
