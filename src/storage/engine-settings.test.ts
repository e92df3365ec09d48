// The embedded engine's server settings (ENGINE_SERVER_ARGS, client.ts) on a real engine: a store
// opened in a process runs its merges two at a time, and so does the same store opened again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore, type Store } from './client.ts';
import { tempDataDir } from '../testing/service.ts';

async function concurrencyRatio(store: Store): Promise<string> {
  const rows = await store.read<{ value: string }>(`SELECT value FROM system.server_settings WHERE name = 'background_merges_mutations_concurrency_ratio'`, {});
  return rows[0]?.value ?? 'unset';
}

test('the embedded engine runs two merges at a time, and again after the store is reopened', async () => {
  const dir = tempDataDir('engine-settings-');
  for (let open = 0; open < 2; open++) {
    const store = await openStore({ database: 'stacks' }, dir);
    try {
      assert.equal(await concurrencyRatio(store), '1', `opened ${open + 1} time(s)`);
      const pool = await store.read<{ value: string }>(`SELECT value FROM system.server_settings WHERE name = 'background_pool_size'`, {});
      assert.ok(Number(pool[0].value) >= 1);
    } finally {
      await store.client.close();
    }
  }
});
