// POST routes: the handler sees the whole body (however it arrives), an empty body is empty, and
// a body over the limit is answered 413 without running the handler.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createApiApp } from './app.ts';
import { listen } from '../server/server.ts';
import { bodyOf, POST_BODY_LIMIT } from './route.ts';

test('POST bodies reach the handler whole; oversized ones get 413', async () => {
  let calls = 0;
  const app = createApiApp(
    [
      {
        method: 'post',
        path: '/echo',
        handler: async (req) => {
          calls++;
          const raw = bodyOf(req);
          return { bytes: raw.length, text: raw.toString('utf8').slice(0, 20) };
        },
      },
    ],
    {},
  );
  const l = await listen(app, '127.0.0.1', 0);
  const post = async (body: string | Uint8Array | undefined) => {
    const r = await fetch(`http://127.0.0.1:${l.port}/echo`, { method: "POST", body: body as BodyInit | undefined });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  try {
    assert.deepEqual(await post('{"a":1}'), { status: 200, body: { bytes: 7, text: '{"a":1}' } });
    assert.deepEqual(await post(undefined), { status: 200, body: { bytes: 0, text: '' } });
    const big = Buffer.alloc(300_000, 0x61);
    assert.deepEqual(await post(big), { status: 200, body: { bytes: 300_000, text: 'a'.repeat(20) } });
    // Chunked, in pieces with pauses between them.
    const chunked = await new Promise<string>((resolve, reject) => {
      const s = net.connect(l.port, '127.0.0.1', () => {
        s.write('POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n');
        setTimeout(() => s.write('6\r\n world\r\n0\r\n\r\n'), 50);
      });
      let out = '';
      s.on('data', (d) => (out += d.toString()));
      s.on('end', () => resolve(out));
      s.on('error', reject);
    });
    assert.match(chunked, /"bytes":11,"text":"hello world"/);
    const before = calls;
    const tooBig = await post(Buffer.alloc(POST_BODY_LIMIT + 1, 0x61));
    assert.equal(tooBig.status, 413);
    assert.equal(calls, before, 'the handler did not run');
  } finally {
    l.close();
  }
});
