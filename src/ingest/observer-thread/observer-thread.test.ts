// The observer thread hands the check's decodes to the main thread only when asked to (a service
// without a serving store takes them; with one, the pool decodes again with documents, and copying
// the rows across threads was wasted work on both).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDataDir } from '../../testing/service.ts';
import { forkFixtureRows } from '../../testing/fork-fixture.ts';
import { startObserverThread } from './observer-thread.ts';

async function decodesHandedOver(handOff: boolean): Promise<{ acked: number; handed: number }> {
  const observer = await startObserverThread({ logDir: join(tempDataDir('observer-thread-'), 'events'), host: '127.0.0.1', port: 0, bodyLimit: 50 * 1024 * 1024, handOff });
  try {
    let handed = 0;
    let heard = 0;
    observer.onDurable((id) => (heard = Math.max(heard, id)));
    observer.onDecoded((_id, decoded) => {
      assert.ok(decoded);
      handed++;
    });
    const rows = (await forkFixtureRows()).slice(0, 8);
    for (const r of rows) {
      const res = await fetch(`http://127.0.0.1:${observer.port}${r.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: r.payload });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    }
    // Durable listeners hear of an id after its decode was handed over (the id is durable before
    // its ack, the notice may come later): once they heard of the last, every decode sent arrived.
    while (heard < rows.length) await new Promise((r) => setTimeout(r, 20));
    return { acked: rows.length, handed };
  } finally {
    await observer.close();
  }
}

test('the observer thread sends its decodes to the main thread only when asked to', async () => {
  const off = await decodesHandedOver(false);
  assert.equal(off.handed, 0, 'none sent');
  const on = await decodesHandedOver(true);
  assert.equal(on.handed, on.acked, 'one per accepted body');
});
