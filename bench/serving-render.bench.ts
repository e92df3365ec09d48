// Micro benchmark (tinybench): what rendering the serving store's documents adds to decoding
// blocks in the decode workers. One op = one pass over the first N /new_block bodies of a log.
// Run: npx tsx bench/serving-render.bench.ts --log chain.tsv [--blocks 300] [--time ms]
import { Bench } from 'tinybench';
import { parseArgs } from 'node:util';
import { decodeBlockRows, type NodeBlock } from '../src/workers/decode-block.ts';
import { servedRows } from '../src/workers/serving/served-rows.ts';
import { readTsvRows } from '../src/ingest/tsv/read-tsv.ts';

const { values } = parseArgs({ options: { log: { type: 'string' }, time: { type: 'string', default: '3000' }, blocks: { type: 'string', default: '300' } } });
if (!values.log) throw new Error('usage: npx tsx bench/serving-render.bench.ts --log <events.tsv> [--blocks N] [--time ms]');
const payloads: NodeBlock[] = [];
for await (const row of readTsvRows(values.log)) {
  if (row.path !== '/new_block') continue;
  payloads.push(JSON.parse(row.payload) as NodeBlock);
  if (payloads.length >= Number(values.blocks)) break;
}
const txs = payloads.reduce((n, p) => n + p.transactions.length, 0);
console.log(`corpus: ${payloads.length} blocks, ${txs} txs; ${values.time} ms per task\n`);

let sink = 0;
const bench = new Bench({ time: Number(values.time), warmupTime: 300 });
bench
  .add('block rows (ClickHouse rows, serialized)', () => {
    for (const p of payloads) sink += Object.keys(decodeBlockRows(p).rows.serialize()).length;
  })
  .add('block rows + serving documents', () => {
    for (const p of payloads) {
      const d = decodeBlockRows(p);
      sink += Object.keys(d.rows.serialize()).length + servedRows(d.rows, d.ownCount).txs.length;
    }
  });
await bench.run();
console.log('| task | µs per tx |\n|---|---|');
for (const t of bench.tasks) {
  const r = t.result as { latency?: { mean: number } } | undefined;
  console.log(`| ${t.name} | ${(((r?.latency?.mean ?? NaN) * 1000) / txs).toFixed(1)} |`);
}
if (sink < 0) console.log(sink);
