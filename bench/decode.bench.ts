// Micro benchmark: our decoder (src/stacks/codec) vs @stacks/transactions v7 on the fixture corpus.
// Run: npx tsx bench/decode.bench.ts [--time ms]
// One op = one pass over the whole corpus (every distinct fixture raw_tx, or every distinct Clarity value).
import { Bench } from 'tinybench';
import { deserializeTransaction, deserializeCV, cvToString, getCVTypeString } from '@stacks/transactions';
import { distinctRawTxs, loadFixtures } from '../src/testing/stacks/fixtures.ts';
import { decodeTransaction } from '../src/stacks/codec/transaction.ts';
import { formatTransaction } from '../src/stacks/codec/api-format.ts';
import { clarityRepr, decodeClarity, decodeClarityValue } from '../src/stacks/codec/clarity.ts';

const timeArg = process.argv.indexOf('--time');
const time = timeArg > 0 ? Number(process.argv[timeArg + 1]) : 1500;

const txHex = distinctRawTxs().map((t) => t.rawTx.slice(2));
const txBytes = txHex.map((h) => Buffer.from(h, 'hex'));
const values = new Set<string>();
for (const f of loadFixtures()) {
  for (const t of f.txs) if (t.rawResult) values.add(t.rawResult.slice(2));
  for (const e of f.events) if (e.rawValue.length > 2) values.add(e.rawValue.slice(2));
}
for (const hex of txHex) {
  const p = decodeTransaction(hex).payload;
  if (p.type === 'contract_call') for (const a of p.functionArgs) values.add(a.slice(2));
}
const cvHex = [...values];
const cvBytes = cvHex.map((h) => Buffer.from(h, 'hex'));
const txKb = txBytes.reduce((n, b) => n + b.length, 0) / 1024;
const cvKb = cvBytes.reduce((n, b) => n + b.length, 0) / 1024;
console.log(`corpus: ${txHex.length} transactions (${txKb.toFixed(0)} KiB), ${cvHex.length} Clarity values (${cvKb.toFixed(0)} KiB); ${time} ms per task\n`);

let sink = 0;
const bench = new Bench({ time, warmupTime: 300 });
bench
  // like deserializeTransaction, no hashing: the txid the node sent is passed in
  .add('tx decode (hex)     ours: decodeTransaction', () => {
    for (const h of txHex) sink += decodeTransaction(h, { txId: '' }).byteLength;
  })
  .add('tx decode (hex)     @stacks: deserializeTransaction', () => {
    for (const h of txHex) sink += deserializeTransaction(h).chainId;
  })
  .add('tx decode (bytes)   ours: decodeTransaction', () => {
    for (const b of txBytes) sink += decodeTransaction(b, { txId: '' }).byteLength;
  })
  .add('tx decode (bytes)   @stacks: deserializeTransaction', () => {
    for (const b of txBytes) sink += deserializeTransaction(b).chainId;
  })
  .add('tx decode + txid    ours: decodeTransaction', () => {
    for (const h of txHex) sink += decodeTransaction(h).txId.length;
  })
  .add('tx decode + txid    @stacks: deserialize + txid()', () => {
    for (const h of txHex) sink += deserializeTransaction(h).txid().length;
  })
  .add('tx decode + render  ours: decode + formatTransaction', () => {
    for (const h of txHex) sink += formatTransaction(decodeTransaction(h)).fee_rate.length;
  })
  .add('Clarity repr        ours: clarityRepr', () => {
    for (const h of cvHex) sink += clarityRepr(h).length;
  })
  .add('Clarity repr        @stacks: deserializeCV + cvToString', () => {
    for (const h of cvHex) sink += cvToString(deserializeCV(h)).length;
  })
  .add('Clarity repr+type   ours: decodeClarity', () => {
    for (const h of cvHex) sink += decodeClarity(h).type_signature.length;
  })
  .add('Clarity repr+type   @stacks: deserializeCV + cvToString + getCVTypeString', () => {
    for (const h of cvHex) {
      const cv = deserializeCV(h);
      sink += cvToString(cv).length + getCVTypeString(cv).length;
    }
  })
  .add('Clarity structure   ours: decodeClarityValue', () => {
    for (const h of cvHex) sink += decodeClarityValue(h).type.length;
  })
  .add('Clarity structure   @stacks: deserializeCV', () => {
    for (const h of cvHex) sink += deserializeCV(h).type.length;
  });

await bench.run();

const rows = bench.tasks.map((t) => {
  const r = t.result as { state?: string; throughput?: { mean: number }; latency?: { rme?: number } };
  const opsPerSec = r.throughput?.mean ?? 0;
  const perPass = t.name.startsWith('tx') ? txHex.length : cvHex.length;
  return { task: t.name, 'passes/s': Math.round(opsPerSec), 'items/s': Math.round(opsPerSec * perPass), 'µs/item': Number(((1e6 / (opsPerSec * perPass)) || 0).toFixed(2)) };
});
console.table(rows);

// speedup of each "ours" row over the @stacks row that follows it with the same prefix
const speedups: Record<string, string> = {};
for (let i = 0; i < rows.length; i++) {
  const prefix = rows[i].task.split(/\s{2,}/)[0];
  const ours = rows.find((r) => r.task.startsWith(prefix) && r.task.includes('ours:'));
  const theirs = rows.find((r) => r.task.startsWith(prefix) && r.task.includes('@stacks:'));
  if (ours && theirs && !(prefix in speedups)) speedups[prefix] = `${(ours['passes/s'] / theirs['passes/s']).toFixed(1)}x faster`;
}
console.log('ours vs @stacks/transactions:', speedups);
if (sink === -1) console.log(sink);
