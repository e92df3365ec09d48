import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, appendFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLogWriter } from './writer.ts';
import { readRecords } from './reader.ts';
import { RecordStatus } from './record.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'evlog-'));

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
