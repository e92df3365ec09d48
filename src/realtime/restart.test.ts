// Real-time subscriptions across a crash of the service in the middle of a feed: the official
// Socket.IO client reconnects with its last cursor and ends with exactly the full sequence —
// nothing twice, nothing out of order, nothing missing (a batch redone after the crash is not
// announced again). Also: JSON-RPC `subscribe` with a cursor replays from the journal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { connectWebSocketClient } from '@stacks/blockchain-api-client';
import { startService, tempDataDir, waitForProcessing, type RunningService } from '../testing/service.ts';
import { feedRows, fixtureRows } from '../testing/realtime/feed.ts';
import { socketIoCollector } from '../testing/realtime/collect.ts';
import { assertInOrder, interestOf, sequenceOf, settle } from '../testing/realtime/check.ts';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** JSON-RPC `subscribe` to blocks with a cursor (sent raw on the official client's socket): the
 *  block notifications' cursors. */
async function rpcBlocksFrom(apiUrl: string, cursor: string): Promise<string[]> {
  const client = await connectWebSocketClient(apiUrl);
  const ws = client.webSocket as unknown as { addEventListener(e: string, f: (ev: { data: unknown }) => void): void; send(text: string): void; close(): void };
  const cursors: string[] = [];
  let reply: unknown;
  ws.addEventListener('message', (ev) => {
    const msg = JSON.parse(String(ev.data)) as { id?: number; method?: string; cursor?: string; result?: unknown; error?: unknown };
    if (msg.id === 1) reply = msg.result ?? msg.error;
    else if (msg.method === 'block') cursors.push(msg.cursor!);
  });
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { event: 'block', cursor } }));
  await settle([cursors], 500);
  ws.close();
  assert.deepEqual(reply, { cursor });
  return cursors;
}

test('a crash mid-feed: the client resumes with nothing twice, out of order or missing', async () => {
  const fixture = 'fuzzed-transactions-1';
  const interest = interestOf(fixture);
  const rows = await fixtureRows(fixture);
  const dataDir = tempDataDir();
  // One batch per log entry: the crash lands between batches that announce something.
  const env = { STACKS_BLOCKCHAIN_API_PORT: String(await freePort()), STACKS_API_TEST_BATCH_ENTRIES: '1' };
  let svc: RunningService = await startService({ dataDir, env });
  // From the start (the journal is empty yet): resumable even before its first message.
  const sio = socketIoCollector(svc.apiUrl, interest, { cursor: '0:-1' });
  try {
    await sio.connected;
    const half = Math.floor(rows.length / 2);
    await feedRows(svc.eventUrl, rows.slice(0, half));
    // Killed while it may still be processing what it acknowledged.
    await svc.kill();
    const before = sio.got.length;
    svc = await startService({ dataDir, env });
    await waitForProcessing(svc.apiUrl);
    await feedRows(svc.eventUrl, rows.slice(half));
    await waitForProcessing(svc.apiUrl);
    await settle([sio.got]);
    assert.ok(sio.got.length > before, 'messages after the restart');

    const full = socketIoCollector(svc.apiUrl, interest, { cursor: '0:-1' });
    try {
      await full.connected;
      await settle([full.got]);
      assertInOrder(sio.got, 'across the restart');
      assert.deepEqual(sequenceOf(sio.got), sequenceOf(full.got), 'exactly the full sequence');
      assert.ok(full.got.some((r) => r.kind === 'block') && full.got.some((r) => r.kind === 'mempool'));
    } finally {
      full.close();
    }
    const blocks = full.got.filter((r) => r.kind === 'block').map((r) => r.cursor);
    assert.deepEqual(await rpcBlocksFrom(svc.apiUrl, '0:-1'), blocks, 'JSON-RPC subscribe with a cursor replays the same blocks');
    assert.deepEqual(await rpcBlocksFrom(svc.apiUrl, blocks[1]), blocks.slice(2), 'from a cursor: only what came after it');
  } finally {
    sio.close();
    await svc.stop();
  }
});
