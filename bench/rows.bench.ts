// Row serialization for inserts (tinybench): how fast the decode workers turn a block into
// per-table JSONCompactEachRow text, and what the JSON.stringify part of that costs.
import { Bench } from 'tinybench';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeBlock, type NodeBlock } from '../src/workers/decode-block.ts';
import { RowSet } from '../src/workers/rows.ts';
import { SHARED } from '../src/testing/service.ts';

const dir = join(SHARED, 'fixtures', 'new_block-json');
const block = JSON.parse(readFileSync(join(dir, 'stx_lock-1994-0xd45e090ac442380cf50655e3d1c904c355a501d6dffa3b5e4799083062469dbc.json'), 'utf8')) as NodeBlock;
const rows = Array.from({ length: 1000 }, (_, i) => ({ tx_id: `0x${i.toString(16).padStart(64, '0')}`, index_block_hash: `0x${'ab'.repeat(32)}`, microblock_hash: '', event_index: i, amount: 123456789012345678901234567890n, sender: 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7', recipient: 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE' }));

const bench = new Bench({ time: 1500 });
bench
  .add(`decodeBlock (${block.transactions.length} txs, ${block.events.length} events) → rows`, () => {
    decodeBlock(block);
  })
  .add('RowSet: 1,000 event rows → JSONCompactEachRow', () => {
    const set = new RowSet();
    for (const r of rows) set.add('stx_events', r);
    set.serialize();
  });
await bench.run();
console.log('| task | ops/s | mean µs | p99 µs |\n|---|---|---|---|');
for (const t of bench.tasks) {
  const r = t.result as { throughput?: { mean: number }; latency?: { mean: number; p99?: number } } | undefined;
  const mean = (r?.latency?.mean ?? NaN) * 1000;
  console.log(`| ${t.name} | ${Math.round(1000 / (r?.latency?.mean ?? NaN)).toLocaleString('en-US')} | ${mean.toFixed(1)} | ${((r?.latency?.p99 ?? NaN) * 1000).toFixed(1)} |`);
}
