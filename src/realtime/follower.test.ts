// A read-only process that follows the writer's event log announces the same messages, with the
// same cursors, as the writer: both journal them from the batches they commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startService, waitForProcessing } from '../testing/service.ts';
import { feedRows, fixtureRows } from './testing/feed.ts';
import { socketIoCollector } from './testing/collect.ts';
import { assertInOrder, interestOf, sequenceOf, settle } from './testing/check.ts';

test('a follower announces what the writer announces, with the same cursors', async () => {
  const fixture = 'mainnet-reorg-scenario2';
  const writer = await startService();
  const follower = await startService({ env: { STACKS_API_MODE: 'readonly', STACKS_API_FOLLOW_LOG: join(writer.dataDir, 'events') } });
  const interest = interestOf(fixture);
  const atWriter = socketIoCollector(writer.apiUrl, interest);
  const atFollower = socketIoCollector(follower.apiUrl, interest);
  try {
    await Promise.all([atWriter.connected, atFollower.connected]);
    await feedRows(writer.eventUrl, await fixtureRows(fixture));
    const done = (await waitForProcessing(writer.apiUrl)) as { event_log: { processed_id: number } };
    for (let i = 0; i < 300; i++) {
      const s = (await (await fetch(`${follower.apiUrl}/extended`)).json()) as { serving_store?: { applied_id: number } };
      if ((s.serving_store?.applied_id ?? 0) >= done.event_log.processed_id) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await settle([atWriter.got, atFollower.got]);
    assert.ok(atWriter.got.some((r) => r.kind === 'reorg') && atWriter.got.length > 10);
    assertInOrder(atFollower.got, 'follower');
    const counters = async (url: string) => (await (await fetch(`${url}/metrics`)).text()).split('\n').filter((l) => /^stacks_api_realtime_(messages|slow)/.test(l)).join('; ');
    // On a difference, what each side counted (messages it could not render, replays after reconnects).
    const why = `writer: ${await counters(writer.apiUrl)}\nfollower: ${await counters(follower.apiUrl)}\nfollower output: ${follower.output().slice(-3000)}`;
    assert.deepEqual(sequenceOf(atFollower.got), sequenceOf(atWriter.got), why);
  } finally {
    atWriter.close();
    atFollower.close();
    await follower.stop();
    await writer.stop();
  }
});
