// A read-only process that follows the writer's event log announces the same messages, with the
// same cursors, as the writer: both journal them from the batches they commit. Each batch's writes
// are held open between ClickHouse and the serving store (STACKS_API_TEST_STORE_DELAY_MS) and
// messages are sent a little after their batch (STACKS_API_TEST_PUMP_DELAY_MS), so they are
// rendered while the next batch is half stored, where one used to find no answer and be dropped:
// what both announce live must equal what a client replaying the journal from its start receives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startService, waitForProcessing } from '../testing/service.ts';
import { feedRows, fixtureRows } from '../testing/realtime/feed.ts';
import { socketIoCollector } from '../testing/realtime/collect.ts';
import { assertInOrder, interestOf, sequenceOf, settle } from '../testing/realtime/check.ts';

test('a follower announces what the writer announces, with the same cursors', async () => {
  const fixture = 'mainnet-reorg-scenario2';
  const delay = { STACKS_API_TEST_STORE_DELAY_MS: '400', STACKS_API_TEST_PUMP_DELAY_MS: '150' };
  const writer = await startService({ env: delay });
  const follower = await startService({ env: { ...delay, STACKS_API_MODE: 'readonly', STACKS_API_FOLLOW_LOG: join(writer.dataDir, 'events') } });
  const interest = interestOf(fixture);
  const atWriter = socketIoCollector(writer.apiUrl, interest);
  const atFollower = socketIoCollector(follower.apiUrl, interest);
  try {
    await Promise.all([atWriter.connected, atFollower.connected]);
    // Paced, so that each entry arrives while the previous batch is being written.
    for (const row of await fixtureRows(fixture)) {
      await feedRows(writer.eventUrl, [row]);
      await new Promise((r) => setTimeout(r, 200));
    }
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
    const replayed = socketIoCollector(writer.apiUrl, interest, { cursor: '0:0' });
    try {
      await replayed.connected;
      for (let i = 0; i < 200 && replayed.got.length < atWriter.got.length; i++) await new Promise((r) => setTimeout(r, 100));
      await settle([replayed.got]);
      assert.deepEqual(sequenceOf(atWriter.got), sequenceOf(replayed.got), `announced live vs replayed from the journal afterwards\n${why}`);
    } finally {
      replayed.close();
    }
  } finally {
    atWriter.close();
    atFollower.close();
    await follower.stop();
    await writer.stop();
  }
});
