// The current pending set (mempool_pending, sql/0003) mirrors mempool_status exactly across batches,
// compaction leaves no rows of txs that left it, and the mempool endpoints read through it.
import { test } from 'node:test';
import { summarizeTx } from '../../stacks/tx-summary.ts';
import assert from 'node:assert/strict';
import { createWriteStream, rmSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { runScript, startService, tempDataDir } from '../../testing/service.ts';
import { readTsvRows } from '../tsv/read-tsv.ts';
import { copyEscape } from '../tsv/copy-text.ts';
import { loadConfig } from '../../config/config.ts';
import { openStore } from '../../storage/client.ts';
import { principalsOf } from '../../stacks/tx-summary.ts';

/** Writes the log's rows in `parts` consecutive files, so that one import each makes several batches. */
async function splitLog(file: string, parts: number): Promise<string[]> {
  const rows = [];
  for await (const r of readTsvRows(file)) rows.push(r);
  const size = Math.ceil(rows.length / parts);
  const files = [];
  for (let p = 0; p < parts; p++) {
    const name = file.replace(/\.tsv$/, `.${p}.tsv`);
    const w = createWriteStream(name);
    for (const r of rows.slice(p * size, (p + 1) * size)) w.write(`${r.id}\t${r.timestamp}\t${r.path}\t${copyEscape(r.payload)}\n`);
    w.end();
    await once(w, 'finish');
    files.push(name);
  }
  return files;
}

test('mempool_pending holds exactly the pending set after every batch is compacted, and the mempool lists read it', async () => {
  const dir = tempDataDir('stacks-mempool-pending-');
  const dataDir = join(dir, 'data');
  try {
    const file = join(dir, 'chain.tsv');
    const gen = await runScript('bench/gen/cli.ts', ['--txs', '4000', '--seed', 'mempool', '--out', file, '--quiet']);
    assert.equal(gen.code, 0, gen.output);
    // Three imports of the first three quarters of the log (its end drains the mempool): txs
    // announced in one part are mined or dropped in a later one, and every stored batch is followed
    // by a compaction (interval 0).
    for (const part of (await splitLog(file, 4)).slice(0, 3)) {
      const imp = await runScript('src/cli/import-events.ts', ['--file', part], { STACKS_API_DATA_DIR: dataDir, STACKS_API_MEMPOOL_CLEANUP_MS: '0' });
      assert.equal(imp.code, 0, imp.output);
    }

    const store = await openStore(loadConfig({ STACKS_API_DATA_DIR: dataDir }).store, dataDir);
    const q = async <T>(query: string) => (await store.client.query({ query, format: 'JSONEachRow' })).json<T>();
    let pending: string[];
    let principals: string[];
    try {
      pending = (await q<{ tx_id: string }>(`SELECT tx_id FROM mempool_status GROUP BY tx_id HAVING argMax(status, version) = 'pending' ORDER BY tx_id`)).map((r) => r.tx_id);
      const mirrored = (await q<{ tx_id: string }>(`SELECT tx_id FROM mempool_pending FINAL ORDER BY tx_id`)).map((r) => r.tx_id);
      const left = (await q<{ n: string }>(`SELECT count() AS n FROM mempool_status GROUP BY tx_id HAVING argMax(status, version) != 'pending'`)).length;
      assert.ok(pending.length > 20 && left > 1000, `the log leaves txs pending (${pending.length}) and others mined or dropped (${left})`);
      assert.deepEqual(mirrored, pending);
      const [stored] = await q<{ rows: string; deleted: string }>(`SELECT count() AS rows, countIf(is_deleted = 1) AS deleted FROM mempool_pending`);
      assert.equal(Number(stored.deleted), 0, 'compaction removed the rows of txs that left the pending set');
      assert.equal(Number(stored.rows), pending.length);
      // A principal's pending txs: those whose raw tx names it (sender, sponsor, recipient, contract).
      const raws = await q<{ tx_id: string; raw_tx: string }>(`SELECT tx_id, raw_tx FROM mempool_txs WHERE tx_id IN (${pending.map((t) => `'${t}'`).join(',')}) LIMIT 1 BY tx_id`);
      principals = (await q<{ principal: string }>(`SELECT DISTINCT arrayJoin(principals) AS principal FROM mempool_pending FINAL ORDER BY cityHash64(principal) LIMIT 25`)).map((r) => r.principal);
      for (const p of principals) {
        const viaPending = (await q<{ tx_id: string }>(`SELECT tx_id FROM mempool_pending FINAL WHERE has(principals, '${p}') ORDER BY tx_id`)).map((r) => r.tx_id);
        const naming = raws.filter((r) => principalsOf(summarizeTx(r.raw_tx)).includes(p)).map((r) => r.tx_id).sort();
        assert.deepEqual(viaPending, naming, `pending txs of ${p}`);
      }
    } finally {
      await store.client.close();
    }

    const svc = await startService({ dataDir });
    try {
      const list = (await (await fetch(`${svc.apiUrl}/extended/v1/tx/mempool?limit=50&unanchored=true`)).json()) as { total: number; results: Array<{ tx_id: string }> };
      assert.equal(list.total, pending.length);
      assert.ok(list.results.length > 0 && list.results.every((r) => pending.includes(r.tx_id)), 'the list shows pending txs only');
      let listed = 0;
      for (const p of principals.filter((x) => !x.includes('.')).slice(0, 8)) {
        const mine = (await (await fetch(`${svc.apiUrl}/extended/v1/address/${p}/mempool?limit=50`)).json()) as { results: Array<{ tx_id: string }> };
        assert.ok(mine.results.every((r) => pending.includes(r.tx_id)), `${p}'s mempool list holds pending txs only`);
        listed += mine.results.length;
      }
      assert.ok(listed > 0, 'some principal has pending txs listed');
    } finally {
      await svc.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
