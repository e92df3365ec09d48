// A generated chain (forks, microblock streams, fee replacements, never-minable txs): the serving
// store equals ClickHouse; no pending tx holds a nonce its account already used on the canonical
// chain (the reference drops such txs as replaced); a microblock tx streamed before its anchor block
// shows the stream's tx_index, as the reference keeps the streamed row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runScript, startService, tempDataDir } from '../testing/service.ts';
import { assertServingEqualsClickHouse } from '../testing/serving.ts';
import { readLog } from '../../bench/gen/inspect.ts';

interface Tx {
  tx_id: string;
  tx_index: number;
  tx_status: string;
  nonce: number;
  sender_address: string;
  sponsored: boolean;
  sponsor_address?: string;
  canonical?: boolean;
}

test('a generated chain: serving store, mempool nonces and streamed tx_index', async () => {
  const dir = tempDataDir('stacks-gen-serving-');
  const file = join(dir, 'chain.tsv');
  const gen = await runScript('bench/gen/cli.ts', ['--txs', '4000', '--seed', '7', '--microblock-rate', '1', '--out', file, '--quiet']);
  assert.equal(gen.code, 0, gen.output);
  const dataDir = join(dir, 'data');
  const imp = await runScript('src/cli/import-events.ts', ['--file', file], { STACKS_API_DATA_DIR: dataDir });
  assert.equal(imp.code, 0, imp.output);
  await assertServingEqualsClickHouse(dataDir, 60);
  // The same import with the store's pages dropped inside every batch's write (a budget of 1 MB):
  // the dirty pages a drop takes out of the map are still written, and the store equals ClickHouse.
  const dropped = join(dir, 'data-dropped');
  const imp2 = await runScript('src/cli/import-events.ts', ['--file', file], { STACKS_API_DATA_DIR: dropped, STACKS_API_STORE_WRITE_RESIDENT_MB: '1' });
  assert.equal(imp2.code, 0, imp2.output);
  await assertServingEqualsClickHouse(dropped, 60);

  // Streamed txs and the tx_index each had in its stream.
  const streamed = new Map<string, number>();
  for (const r of await readLog(file)) {
    if (r.path !== '/new_microblocks') continue;
    for (const t of (r.body as { transactions: Array<{ txid: string; tx_index: number }> }).transactions) streamed.set(t.txid, t.tx_index);
  }
  assert.ok(streamed.size > 20, 'the chain has microblock streams');

  const svc = await startService({ dataDir });
  try {
    const get = async <T>(path: string): Promise<T> => (await (await fetch(svc.apiUrl + path)).json()) as T;
    let checked = 0;
    for (const [txId, index] of [...streamed].slice(0, 60)) {
      const tx = await get<Tx>(`/extended/v1/tx/${txId}`);
      if (!tx.canonical) continue;
      assert.equal(tx.tx_index, index, `tx_index of streamed tx ${txId}`);
      checked++;
    }
    assert.ok(checked > 10, `streamed txs checked: ${checked}`);

    const pending = await get<{ total: number; results: Tx[] }>('/extended/v1/tx/mempool?limit=50');
    for (const tx of pending.results) {
      const account = tx.sponsored && tx.sponsor_address ? tx.sponsor_address : tx.sender_address;
      const nonces = await get<{ last_executed_tx_nonce: number | null }>(`/extended/v1/address/${account}/nonces`);
      assert.ok(nonces.last_executed_tx_nonce === null || tx.nonce > nonces.last_executed_tx_nonce, `pending ${tx.tx_id} holds nonce ${tx.nonce}, already used (${nonces.last_executed_tx_nonce})`);
    }
  } finally {
    await svc.stop();
  }
});
