// txs.event_tables names exactly the event tables that hold rows of the tx's placement: the tx
// object's events are read from those tables only, so a missing bit would drop events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHARED, runScript, tempDataDir } from '../testing/service.ts';
import { openStore } from '../storage/client.ts';
import { rows } from '../http/reads/query.ts';
import { EVENT_TABLE_BIT } from '../storage/event-tables.ts';

// Between them: STX, FT and NFT events and contract logs (microblocks too), and STX locks.
const FIXTURES = ['poisonmicroblock.tsv', 'mocknet.tsv'];

const holds = Object.entries(EVENT_TABLE_BIT)
  .map(([table, bit]) => `if((tx_id, index_block_hash, microblock_hash) IN (SELECT tx_id, index_block_hash, microblock_hash FROM ${table}), ${bit}, 0)`)
  .join(' + ');

test('txs.event_tables is the set of event tables holding each placement\'s events', async () => {
  let seen = 0;
  for (const fixture of FIXTURES) {
    const dir = tempDataDir();
    const r = await runScript('src/cli/import-events.ts', ['--file', join(SHARED, 'fixtures', fixture)], { STACKS_API_DATA_DIR: dir });
    assert.equal(r.code, 0, r.output);
    const store = await openStore({ database: 'stacks' }, dir);
    try {
      const list = await rows<{ tx_id: string; stored: number; holds: number }>(
        store,
        `SELECT tx_id, event_tables AS stored, ${holds} AS holds FROM txs FINAL`,
      );
      assert.ok(list.length > 0, fixture);
      for (const t of list) {
        assert.equal(Number(t.stored), Number(t.holds), `${fixture} ${t.tx_id}`);
        seen |= Number(t.stored);
      }
    } finally {
      await store.client.close();
    }
  }
  assert.equal(seen, 31, 'every event table occurs in the fixtures');
});
