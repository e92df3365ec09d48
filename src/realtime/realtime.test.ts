// Real-time subscriptions through the official client (@stacks/blockchain-api-client, unchanged),
// both channels, while recorded logs are fed: every topic delivers, in order, each message equals
// the REST answer for its object, and a client that leaves mid-feed resumes by cursor to exactly
// the full sequence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, waitForProcessing } from '../testing/service.ts';
import { feedRows, fixtureRows } from '../testing/realtime/feed.ts';
import { jsonRpcCollector, socketIoCollector } from '../testing/realtime/collect.ts';
import { assertInOrder, assertMatchesRest, interestOf, sequenceOf, settle } from '../testing/realtime/check.ts';

const FIXTURES: Record<string, string[]> = {
  // A reorg (its orphaned txs go back to the mempool), a microblock stream, NFT events.
  'mainnet-reorg-scenario2': ['block', 'microblock', 'mempool', 'transaction', 'address-transaction', 'address-stx-balance', 'nft-event', 'reorg'],
  // Mempool traffic.
  'fuzzed-transactions-1': ['block', 'mempool', 'transaction', 'address-transaction', 'address-stx-balance'],
};

for (const [fixture, kinds] of Object.entries(FIXTURES)) {
  test(`${fixture}: both channels deliver every topic, as REST answers, and resume by cursor`, async () => {
    const svc = await startService();
    const closers: Array<() => void> = [];
    try {
      const interest = interestOf(fixture);
      const sio = socketIoCollector(svc.apiUrl, interest);
      closers.push(sio.close);
      await sio.connected;
      const rpc = await jsonRpcCollector(svc.apiUrl, interest);
      closers.push(rpc.close);
      const leaver = socketIoCollector(svc.apiUrl, interest);
      closers.push(leaver.close);
      await leaver.connected;

      const rows = await fixtureRows(fixture);
      const half = Math.floor(rows.length / 2);
      await feedRows(svc.eventUrl, rows.slice(0, half));
      await waitForProcessing(svc.apiUrl);
      await settle([sio.got, rpc.got, leaver.got]);
      leaver.close();
      assert.ok(leaver.got.length > 0, 'messages before the client left');
      const cursor = leaver.got.at(-1)!.cursor;

      await feedRows(svc.eventUrl, rows.slice(half));
      await waitForProcessing(svc.apiUrl);
      await settle([sio.got, rpc.got]);
      const back = socketIoCollector(svc.apiUrl, interest, { cursor });
      closers.push(back.close);
      await back.connected;
      await settle([back.got]);

      assertInOrder(sio.got, 'socket.io');
      assertInOrder(rpc.got, 'json-rpc');
      assert.deepEqual(new Set(sio.got.map((r) => r.kind)), new Set(kinds), 'every topic delivers');
      assert.deepEqual(sequenceOf(rpc.got), sequenceOf(sio.got), 'both channels send the same sequence');
      assert.equal(rpc.callbacks(), rpc.got.filter((r) => r.kind !== 'reorg').length, "the client's own callbacks fire for each");
      assert.deepEqual(sequenceOf([...leaver.got, ...back.got]), sequenceOf(sio.got), 'resumed by cursor: exactly the full sequence');
      assert.ok((await assertMatchesRest(svc.apiUrl, sio.got, false)) > 5);
      await assertMatchesRest(svc.apiUrl, rpc.got, true);
    } finally {
      for (const close of closers) close();
      await svc.stop();
    }
  });
}
