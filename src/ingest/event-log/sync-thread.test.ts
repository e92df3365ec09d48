// The event log's sync on a thread of its own: appends resolve only once synced, in order, with the
// durable id after them; appends made while a sync runs share the next one; a failed sync fails
// the appends it covered and every later one; the thread is free while the disk flushes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { tempDataDir } from '../../testing/service.ts';
import { EventLogWriter } from './writer.ts';
import { readRecords } from './reader.ts';
import { startSyncThread } from './sync-thread.ts';

test('appends through a sync thread resolve in order once synced, and a burst shares syncs', async () => {
  const dir = join(tempDataDir('sync-thread-'), 'events');
  const thread = startSyncThread();
  let syncs = 0;
  const w = await EventLogWriter.open(dir, 64 * 1024, (fd) => (syncs++, thread.sync(fd)));
  const durableSeen: number[] = [];
  w.onDurable((id) => durableSeen.push(id));
  try {
    const resolved: number[] = [];
    // 200 appends from 200 event-loop turns, each awaited by no one until the end: most find a
    // sync running and wait for the next; small segments make the writer rotate under them.
    const all: Promise<number>[] = [];
    for (let i = 0; i < 200; i++) {
      all.push(w.append({ path: '/new_block', body: Buffer.alloc(1024, i) }).then((id) => (resolved.push(id), id)));
      if (i % 7 === 0) await new Promise((r) => setImmediate(r));
    }
    const ids = await Promise.all(all);
    assert.deepEqual(ids, Array.from({ length: 200 }, (_, i) => i + 1));
    assert.deepEqual(resolved, ids, 'resolved in id order');
    assert.equal(w.durableId, 200);
    assert.ok(syncs < 200 && syncs >= 2, `${syncs} syncs for 200 appends`);
    assert.deepEqual(durableSeen, [...durableSeen].sort((a, b) => a - b), 'the durable id only grows');
    await w.close();
    const bodies: number[] = [];
    for await (const r of readRecords(dir)) bodies.push(r.body[0]);
    assert.deepEqual(bodies, ids.map((id) => (id - 1) % 256));
  } finally {
    await thread.close();
  }
});

test('the writing thread runs while the sync thread syncs', async () => {
  const thread = startSyncThread();
  const fd = openSync(join(tempDataDir('sync-thread-'), 'f'), 'w');
  try {
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    for (let i = 0; i < 20; i++) await thread.sync(fd);
    clearInterval(ticking);
    assert.ok(turns > 0, 'timers ran during the syncs');
  } finally {
    closeSync(fd);
    await thread.close();
  }
});

test('a failed sync fails its appends and every later one; close still ends', async () => {
  const dir = join(tempDataDir('sync-thread-'), 'events');
  const thread = startSyncThread();
  // The writer's own fd is fine; the sync is handed a closed one, as a disk error would fail it.
  const w = await EventLogWriter.open(dir, undefined, () => thread.sync(1_000_000));
  try {
    await assert.rejects(w.append({ path: '/new_block', body: Buffer.from('{}') }), /fdatasync of the event log failed/);
    await assert.rejects(w.append({ path: '/new_block', body: Buffer.from('{}') }), /fdatasync of the event log failed/);
    assert.equal(w.durableId, 0);
    await w.close();
  } finally {
    await thread.close();
  }
});
