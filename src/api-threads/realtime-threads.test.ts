// Real-time subscriptions on 2 API threads: Socket.IO and JSON-RPC clients, spread over both threads
// by their connections, each receive the same messages in the same order as a 1-thread service
// fed the same log sends (a reorg, a microblock stream, mempool traffic, NFT events), each equal to
// the REST answer; a client that leaves resumes by cursor, on whichever thread its new connection
// reaches, to exactly the full sequence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, waitForProcessing, type RunningService } from '../testing/service.ts';
import { feedRows, fixtureRows } from '../testing/realtime/feed.ts';
import { jsonRpcCollector, socketIoCollector, type Received } from '../testing/realtime/collect.ts';
import { assertInOrder, assertMatchesRest, interestOf, sequenceOf, settle } from '../testing/realtime/check.ts';
import { threadClients } from '../testing/api-threads.ts';

const FIXTURE = 'mainnet-reorg-scenario2';
const CLIENTS = 5;

test('Socket.IO and JSON-RPC on 2 API threads send what 1 thread sends', { timeout: 600_000 }, async () => {
  const [one, two] = await Promise.all([startService({ env: { STACKS_API_THREADS: '1' } }), startService({ env: { STACKS_API_THREADS: '2' } })]);
  const closers: Array<() => void> = [];
  try {
    const interest = interestOf(FIXTURE);
    const sio = async (svc: RunningService, cursor?: string) => {
      const c = socketIoCollector(svc.apiUrl, interest, cursor ? { cursor } : {});
      closers.push(c.close);
      await c.connected;
      return c;
    };
    const rpc = async (svc: RunningService) => {
      const c = await jsonRpcCollector(svc.apiUrl, interest);
      closers.push(c.close);
      return c;
    };
    const reference = await sio(one);
    const sioClients = await Promise.all(Array.from({ length: CLIENTS }, () => sio(two)));
    const rpcClients = await Promise.all(Array.from({ length: CLIENTS }, () => rpc(two)));
    const leaver = await sio(two);
    const clients = await threadClients(two.apiUrl);
    assert.equal(clients.length, 2);
    assert.ok(clients.every((n) => n > 0), `clients on each thread: ${clients.join(', ')}`);

    const rows = await fixtureRows(FIXTURE);
    const half = Math.floor(rows.length / 2);
    const feedBoth = (part: typeof rows) => Promise.all([one, two].map(async (svc) => (await feedRows(svc.eventUrl, part), await waitForProcessing(svc.apiUrl))));
    await feedBoth(rows.slice(0, half));
    await settle([reference.got, leaver.got, ...sioClients.map((c) => c.got), ...rpcClients.map((c) => c.got)]);
    leaver.close();
    assert.ok(leaver.got.length > 0, 'messages before the client left');
    await feedBoth(rows.slice(half));
    const back = await sio(two, leaver.got.at(-1)!.cursor);
    const all: Received[][] = [reference.got, back.got, ...sioClients.map((c) => c.got), ...rpcClients.map((c) => c.got)];
    await settle(all);

    const expected = sequenceOf(reference.got);
    assert.ok(expected.length > 20, `${expected.length} messages`);
    for (const [i, c] of sioClients.entries()) {
      assertInOrder(c.got, `socket.io ${i}`);
      assert.deepEqual(sequenceOf(c.got), expected, `socket.io client ${i}`);
    }
    for (const [i, c] of rpcClients.entries()) {
      assertInOrder(c.got, `json-rpc ${i}`);
      assert.deepEqual(sequenceOf(c.got), expected, `json-rpc client ${i}`);
    }
    assert.deepEqual(sequenceOf([...leaver.got, ...back.got]), expected, 'resumed by cursor: exactly the full sequence');
    // Payloads are the REST answers, whichever thread rendered them.
    for (const c of sioClients) await assertMatchesRest(two.apiUrl, c.got, false);
    for (const c of rpcClients) await assertMatchesRest(two.apiUrl, c.got, true);
  } finally {
    for (const close of closers) close();
    await Promise.all([one.stop(), two.stop()]);
  }
});
