// End to end: `npm run gen` writes a small chain, `npm run import-events` ingests it with no
// rejected entry, and the service then reports the generated chain tip with every entry processed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runScript, startService, tempDataDir } from '../../src/testing/service.ts';
import { chainView, readLog } from './inspect.ts';

const run = runScript;

test('a generated log imports with every entry processed and none rejected', async () => {
  const dir = tempDataDir('stacks-gen-e2e-');
  const file = join(dir, 'chain.tsv.gz');
  const gen = await run('bench/gen/cli.ts', ['--txs', '3000', '--seed', 'e2e', '--out', file, '--gz', '--quiet']);
  assert.equal(gen.code, 0, gen.output);
  const rows = await readLog(file);
  const view = chainView(rows);
  assert.ok(view.forks.length > 0 && rows.some((r) => r.path === '/new_microblocks'), 'the log has forks and microblocks');

  const dataDir = join(dir, 'data');
  const statsFile = join(dir, 'stats.json');
  const imp = await run('src/cli/import-events.ts', ['--file', file, '--stats-json', statsFile], { STACKS_API_DATA_DIR: dataDir });
  assert.equal(imp.code, 0, imp.output);
  assert.doesNotMatch(imp.output, /processing stopped/, imp.output);
  const m = /processed (\d+) entries(?: \((\d+) rejected\))?/.exec(imp.output);
  assert.ok(m, imp.output);
  assert.equal(Number(m[1]), rows.length, 'every entry processed');
  if (m[2] !== undefined) assert.equal(Number(m[2]), 0, 'no entry rejected');
  // The benchmark's counters: every delivered block's (and microblock stream's) txs and events.
  const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as { txs: number; events: number; blocks: number };
  const delivered = rows.filter((r) => r.path === '/new_block' || r.path === '/new_microblocks').map((r) => r.body as { transactions: unknown[]; events: unknown[] });
  assert.equal(stats.blocks, rows.filter((r) => r.path === '/new_block').length);
  assert.equal(stats.txs, delivered.reduce((n, b) => n + b.transactions.length, 0));
  assert.equal(stats.events, delivered.reduce((n, b) => n + b.events.length, 0));

  const svc = await startService({ dataDir });
  try {
    const status = (await (await fetch(`${svc.apiUrl}/extended`)).json()) as {
      chain_tip: { block_height: number; index_block_hash: string };
      event_log: { received_id: number; processed_id: number; error?: unknown };
    };
    assert.equal(status.event_log.received_id, rows.length);
    assert.equal(status.event_log.processed_id, rows.length);
    assert.equal(status.event_log.error, undefined);
    const tip = view.canonical.at(-1)!.body;
    assert.equal(status.chain_tip.block_height, tip.block_height);
    assert.equal(status.chain_tip.index_block_hash, tip.index_block_hash);
    const page = (await (await fetch(`${svc.apiUrl}/extended/v2/blocks?limit=1`)).json()) as { total: number };
    assert.equal(page.total, tip.block_height, 'every canonical block is listed (block 0 folded into block 1)');
  } finally {
    await svc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
