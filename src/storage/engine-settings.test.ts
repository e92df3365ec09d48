// The embedded engine's server settings (ENGINE_SERVER_ARGS, client.ts) on a real engine: a store
// opened in a process runs its merges two at a time, and so does the same store opened again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore, type Store } from './client.ts';
import { tempDataDir } from '../testing/service.ts';

async function serverSetting(store: Store, name: string): Promise<string> {
  const rows = await store.read<{ value: string }>(`SELECT value FROM system.server_settings WHERE name = {name:String}`, { name });
  return rows[0]?.value ?? 'unset';
}

test('the embedded engine runs two merges at a time, and again after the store is reopened', async () => {
  const dir = tempDataDir('engine-settings-');
  for (let open = 0; open < 2; open++) {
    const store = await openStore({ database: 'stacks' }, dir);
    try {
      assert.equal(await serverSetting(store, 'background_merges_mutations_concurrency_ratio'), '1', `opened ${open + 1} time(s)`);
      assert.ok(Number(await serverSetting(store, 'background_pool_size')) >= 1);
    } finally {
      await store.client.close();
    }
  }
});
