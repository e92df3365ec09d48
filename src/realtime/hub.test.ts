// The hub with no subscriber: what commits is not read from the journal (its messages' tx ids and
// principals are read from the store to decode them, which kept an API thread busy while
// ingesting). Its head still follows the committed journal, so a later subscriber starts there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importedServingStore } from '../testing/serving.ts';
import { ServingView } from '../serving/view.ts';
import { Hub } from './hub.ts';
import { RealtimeMetrics } from './metrics.ts';
import { loadRealtimeConfig } from './config.ts';
import { journalHead } from '../serving/journal/journal.ts';

test('with no subscriber, the hub moves its head to the committed journal without reading its messages', async () => {
  const { store } = await importedServingStore('mocknet.tsv', 'hub-');
  try {
    const view = new ServingView(store).load();
    view.followStoredThrough(() => Number.MAX_SAFE_INTEGER);
    let rendered = 0;
    const hub = new Hub({ store, view }, async () => {
      rendered++;
      return undefined;
    }, loadRealtimeConfig({}), new RealtimeMetrics());
    // Entries the journal holds, counted as they are read.
    const messagesAt = [...store.journal.getKeys()] as number[];
    assert.ok(messagesAt.length > 5, `the journal has entries (${messagesAt.length})`);
    let read = 0;
    const getRange = store.journal.getRange.bind(store.journal);
    store.journal.getRange = ((opts?: Parameters<typeof getRange>[0]) => {
      const range = getRange(opts);
      return range.map((e) => {
        read++;
        return e;
      });
    }) as typeof store.journal.getRange;
    // As if the hub had announced only the first entry, and the rest were committed since.
    hub.position = { logId: messagesAt[0], index: 0 };
    await hub.pump();
    assert.deepEqual(hub.head, journalHead(store, view.appliedLogId), 'the head is the last committed message');
    // The head's one reverse read (lmdb may step one entry past its limit), not every entry.
    assert.ok(read <= 2, `${read} of ${messagesAt.length} journal entries read`);
    assert.equal(rendered, 0);
    hub.close();
  } finally {
    await store.close();
  }
});
