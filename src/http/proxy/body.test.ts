import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { StreamedBody } from './body.ts';

function flow() {
  const calls: string[] = [];
  return { calls, pause: () => calls.push('pause'), resume: () => calls.push('resume') };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

test('streams chunks in order and ends after the last one', async () => {
  const body = new StreamedBody(flow(), 1024);
  const stream = body.open();
  body.write(Buffer.from('hello '), false);
  setImmediate(() => body.write(Buffer.from('world'), true));
  assert.equal((await readAll(stream)).toString(), 'hello world');
  assert.equal(body.consumed, true);
});

test('pauses the client past the high-water mark and resumes it as the upstream reads', async () => {
  const f = flow();
  const body = new StreamedBody(f, 100);
  for (let i = 0; i < 5; i++) body.write(Buffer.alloc(40, i), false);
  assert.deepEqual(f.calls, ['pause']);
  const stream = body.open();
  const all = readAll(stream);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(f.calls, ['pause', 'resume']);
  body.write(Buffer.alloc(40, 9), true);
  const got = await all;
  assert.equal(got.length, 240);
  assert.equal(got[239], 9);
});

test('an attempt that never read leaves the body replayable to another attempt', async () => {
  const body = new StreamedBody(flow(), 1024);
  body.write(Buffer.from('abc'), false);
  const first = body.open();
  assert.equal(body.consumed, false);
  first.destroy(new Error('connect ECONNREFUSED'));
  const second = body.open();
  body.write(Buffer.from('def'), true);
  assert.equal((await readAll(second)).toString(), 'abcdef');
});

test('fail() errors the current attempt, drops later chunks and releases a paused client', async () => {
  const f = flow();
  const body = new StreamedBody(f, 10);
  const stream = body.open();
  body.write(Buffer.alloc(20), false);
  const errored = new Promise<Error>((resolve) => stream.on('error', resolve));
  body.fail(new Error('too large'));
  assert.equal((await errored).message, 'too large');
  assert.deepEqual(f.calls, ['pause', 'resume']);
  body.write(Buffer.alloc(20), true); // ignored
});
