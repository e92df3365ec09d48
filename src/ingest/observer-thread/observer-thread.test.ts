// The observer thread hands accepted bodies' decodes to the main thread, so the processor does not
// decode those live entries again: without the serving store every one (its rows); with it, while
// the processor is far enough behind (64 entries) to take them, each with the documents the pool
// would render.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDataDir } from '../../testing/service.ts';
import { forkFixtureRows } from '../../testing/fork-fixture.ts';
import { startObserverThread } from './observer-thread.ts';
import { decodeEvent } from '../../workers/decode-event.ts';
import type { DecodeOutcome } from '../../workers/decoded.ts';

async function handedOver(serving: boolean, bodies: Array<{ path: string; payload: string }>, processorRead = 0): Promise<Map<number, { decoded: DecodeOutcome; bytes: number }>> {
  const observer = await startObserverThread({ logDir: join(tempDataDir('observer-thread-'), 'events'), host: '127.0.0.1', port: 0, bodyLimit: 50 * 1024 * 1024, serving });
  observer.noteRead?.(processorRead);
  try {
    const handed = new Map<number, { decoded: DecodeOutcome; bytes: number }>();
    let heard = 0;
    observer.onDurable((id) => (heard = Math.max(heard, id)));
    observer.onDecoded((id, decoded, bytes) => handed.set(id, { decoded: decoded as DecodeOutcome, bytes }));
    for (const r of bodies) {
      const res = await fetch(`http://127.0.0.1:${observer.port}${r.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: r.payload });
      await res.arrayBuffer();
    }
    // Durable listeners hear of an id after its decode was handed over (the id is durable before
    // its ack, the notice may come later): once they heard of the last, every decode sent arrived.
    while (heard < bodies.length) await new Promise((r) => setTimeout(r, 20));
    return handed;
  } finally {
    await observer.close();
  }
}

/** The outcome with its document bytes as plain arrays (the hand-off's are views of one buffer). */
const plain = (o: DecodeOutcome): unknown => JSON.parse(JSON.stringify(o, (_k, v: unknown) => (v instanceof Uint8Array ? [...v] : v)));

test('the observer hands over the decode the pool would make: every one without the serving store, with it while the processor is 64 entries behind', async () => {
  const fixture = (await forkFixtureRows()).slice(0, 12);
  // 80 good bodies (the fixture's repeated: the observer takes repeats like any body) and a bad one.
  const rows = Array.from({ length: 80 }, (_, i) => fixture[i % fixture.length]);
  const bodies = [...rows.slice(0, 40), { path: '/new_block', payload: '{"block_height": "not a block"}' }, ...rows.slice(40)];
  for (const serving of [true, false]) {
    const handed = await handedOver(serving, bodies);
    let documents = 0;
    bodies.forEach((r, i) => {
      const id = i + 1;
      const got = handed.get(id);
      // Entry id is checked when the log holds id - 1 entries and the processor has read none.
      const expected = id !== 41 && (!serving || id - 1 >= 64);
      assert.equal(!!got, expected, `entry ${id} handed over: ${expected}`);
      if (!got) return;
      // The pool's decode of the same body; mempool documents are left to the processor's batch.
      const want = decodeEvent({ path: r.path, body: Buffer.from(r.payload), serve: serving, deferMempoolDocs: true });
      assert.deepEqual(plain(got.decoded), plain(want), `entry ${id} (${r.path})`);
      if (got.decoded.ok && got.decoded.event.kind === 'block') {
        assert.ok(got.bytes > 0, `entry ${id}'s buffers counted`);
        documents += got.decoded.event.served.txs.length;
      }
    });
    if (serving) assert.ok(documents > 0, 'the blocks carry their tx documents');
    else assert.equal(documents, 0, 'no documents without the serving store');
  }
  // A processor that keeps up gets none with the serving store: it would read each entry first.
  assert.equal((await handedOver(true, rows, 1_000)).size, 0);
});
