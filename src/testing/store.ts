// Test helpers around a service's store: open it directly (the service stopped), and make a store
// that starts refusing some rows after part of a log went in (as a schema mismatch would).
import assert from 'node:assert/strict';
import { openStore, type Store } from '../storage/client.ts';
import { startService, waitForProcessing } from './service.ts';

export async function withStore(dataDir: string, fn: (store: Store) => Promise<unknown>): Promise<void> {
  const store = await openStore({ database: 'stacks' }, dataDir);
  try {
    await fn(store);
  } finally {
    await store.client.close();
  }
}

/** Feeds `rows` to a fresh service, stops it, runs `ddl` on its store; returns the data dir. */
export async function storeThatRefuses(rows: ReadonlyArray<{ path: string; payload: string }>, ddl: string): Promise<string> {
  const svc = await startService();
  try {
    for (const r of rows) assert.equal((await fetch(svc.eventUrl + r.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: r.payload })).status, 200);
    await waitForProcessing(svc.apiUrl);
  } finally {
    await svc.stop();
  }
  await withStore(svc.dataDir, (store) => store.client.command({ query: ddl }));
  return svc.dataDir;
}
