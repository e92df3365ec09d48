// Soak bench of the real-time channels: N subscribers (half Socket.IO, half JSON-RPC; split between
// blocks, the mempool and the addresses of the chain by --mix) held for a fixed time while a
// generated chain is POSTed live to the observer at a fixed rate. Reports messages expected,
// received, missed and duplicated, the service's memory over time, and delivery latency from the
// observer POST to receipt. The subscribers run on a thread of their own. Everything on loopback;
// bounded by --minutes (then a short drain).
//
//   npx tsx bench/realtime/soak.ts --minutes 30 --subscribers 2000 --rate 100
import { parseArgs } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startBenchService } from '../lib/service.ts';
import { machine, commit, today } from '../lib/env.ts';
import { replaceSection } from '../lib/results.ts';
import { generateFile } from '../gen/generate.ts';
import { defaultOptions } from '../gen/options.ts';
import { readTsvRows } from '../../src/ingest/tsv/read-tsv.ts';
import { ROOT, waitForProcessing } from '../../src/testing/service.ts';
import { Worker } from 'node:worker_threads';
import { Latency, type Kind, type Tally } from './subscribers.ts';
import type { SubscriberPlan } from './subscriber-thread.ts';
import { expectedByTopics, busyPrincipals, memoryMb } from './expected.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '1' },
    subscribers: { type: 'string', default: '200' },
    rate: { type: 'string', default: '100' },
    seed: { type: 'string', default: 'soak' },
    // Shares of block, mempool and address subscribers: wallets each follow their own address; the
    // block and mempool feeds are what explorers take.
    mix: { type: 'string', default: 'block=10,mempool=5,address=85' },
    // Address subscribers are spread over this many of the chain's busiest principals.
    principals: { type: 'string', default: '500' },
    'no-write': { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
const subscribers = Number(values.subscribers);
const rate = Number(values.rate);
const rowsWanted = Math.ceil(minutes * 60 * rate);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

console.log(`generating a chain for ${rowsWanted} requests…`);
const file = join(tmpdir(), `soak-${values.seed}-${rowsWanted}.tsv`);
await generateFile(defaultOptions(Math.ceil(rowsWanted * 4) + 2000, values.seed), file, false);
const principals = busyPrincipals(file, Number(values.principals));
const shares = Object.fromEntries(values.mix.split(',').map((p) => p.split('=')).map(([k, v]) => [k, Number(v)])) as Record<Kind, number>;

/** Subscriber i's kind: the mix's shares laid out evenly (a 10/5/85 mix repeats every 20). */
function planOf(i: number): SubscriberPlan {
  const total = shares.block + shares.mempool + shares.address;
  const at = ((i * 100) % (total * 100)) / 100;
  const kind: Kind = at < shares.block ? 'block' : at < shares.block + shares.mempool ? 'mempool' : 'address';
  return { kind, principal: principals[i % principals.length], channel: i % 2 === 0 ? 'socket.io' : 'json-rpc' };
}

// The journal keeps the whole run, so the expected messages can be replayed from its start.
const svc = await startBenchService({ env: { STACKS_API_WS_JOURNAL_ENTRIES: String(rowsWanted * 2 + 10_000) } });
const posted = new SharedArrayBuffer(8 * (rowsWanted + 10));
const sentAt = new Float64Array(posted);
const plan = Array.from({ length: subscribers }, (_, i) => planOf(i));
const thread = new Worker(new URL('./subscriber-thread.mjs', import.meta.url), { workerData: { apiUrl: svc.apiUrl, plan, posted } });
const fromThread = (type: string) => new Promise<Record<string, unknown>>((resolve, reject) => {
  const onMessage = (m: Record<string, unknown>) => {
    if (m.type !== type) return;
    thread.off('message', onMessage);
    resolve(m);
  };
  thread.on('message', onMessage);
  thread.once('error', reject);
});
const memory: Array<[number, { rss: number; anon: number; file: number }]> = [];
try {
  const counts = { block: 0, mempool: 0, address: 0 };
  for (const p of plan) counts[p.kind]++;
  console.log(`connecting ${subscribers} subscribers (${counts.block} block, ${counts.mempool} mempool, ${counts.address} address over ${principals.length} principals)…`);
  await fromThread('ready');
  const start = performance.now();
  const sample = () => memory.push([(performance.now() - start) / 1000, memoryMb(svc.child.pid!)]);
  const memoryTimer = setInterval(sample, Math.max(5000, (minutes * 60_000) / 30));
  sample();
  console.log(`feeding ${rate} requests/s for ${minutes} min…`);
  let id = 0;
  for await (const row of readTsvRows(file)) {
    const due = start + (id * 1000) / rate;
    if (due - start > minutes * 60_000) break;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    // Set before the POST: the message can arrive before its answer does.
    if (id + 1 < sentAt.length) sentAt[id + 1] = performance.timeOrigin + performance.now();
    const res = await fetch(`${svc.eventUrl}${row.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: row.payload });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`POST ${row.path}: ${res.status}`);
    id++;
  }
  console.log(`fed ${id} requests; waiting for processing…`);
  await waitForProcessing(svc.apiUrl, 600_000);
  console.log('processed; replaying the journal for the expected messages…');
  await sleep(3000);
  clearInterval(memoryTimer);
  sample();
  const done = fromThread('done');
  thread.postMessage('finish');
  const result = await done;
  const tallies = result.tallies as Tally[];
  const latency = Latency.from(result.latency as Array<[number, number]>);

  // What each subscriber should have had: the journal replayed from the start for its topics.
  const expected = await expectedByTopics(svc.apiUrl, [...new Set(tallies.map((t) => t.topics.join(',')))]).catch((e: unknown) => {
    console.error(`the service's output:\n${svc.output().slice(-4000)}`);
    throw e;
  });
  let exp = 0;
  let got = 0;
  let missed = 0;
  let duplicated = 0;
  let mismatched = 0;
  let closed = 0;
  const reasons = new Map<string, number>();
  for (const t of tallies) {
    const e = expected.get(t.topics.join(','))!;
    exp += e.count;
    got += t.received;
    duplicated += t.notAfter;
    missed += Math.max(0, e.count - (t.received - t.notAfter));
    if (t.received - t.notAfter === e.count && t.sum !== e.sum) mismatched++;
    if (t.closed) {
      closed++;
      const why = (t.reason ?? 'no reason given').replace(/cursor \d+:-?\d+/, 'cursor …');
      reasons.set(why, (reasons.get(why) ?? 0) + 1);
    }
  }
  const f = (n: number) => n.toLocaleString('en-US');
  const memoryLine = memory.map(([s, m]) => `${Math.round(s)} s: ${m.rss.toFixed(0)} (${m.anon.toFixed(0)} + ${m.file.toFixed(0)})`).join(', ');
  const closedLine = closed === 0 ? '' : ` Closed early: ${[...reasons].map(([r, n]) => `${n} × "${r}"`).join(', ')}.`;
  const table = [
    '| minutes | subscribers | rate req/s | requests | expected | received | missed | duplicated / out of order | wrong set | closed early | latency p50 ms | p99 ms | machine | commit |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${minutes} | ${subscribers} | ${rate} | ${f(id)} | ${f(exp)} | ${f(got)} | ${f(missed)} | ${f(duplicated)} | ${mismatched} | ${closed} | ${latency.percentile(50)} | ${latency.percentile(99)} | ${machine()} | ${commit()} |`,
  ].join('\n');
  const body = `Subscribers of both channels (official client, on a thread of their own; half Socket.IO, half JSON-RPC): ${counts.block} on \`block\`, ${counts.mempool} on \`mempool\`, ${counts.address} on the tx and balance topics of one of the ${principals.length} busiest addresses. They are held while a generated chain is POSTed to the observer at a fixed rate, on loopback. Expected = the journal replayed by cursor from the start for each subscriber's topics; "wrong set" = as many as expected but not the same cursors. Latency: observer POST sent → message received.${closedLine} Service memory over time, MB: RSS (anonymous + file-backed; the file-backed part is the memory-mapped serving store and journal, which grow with the chain): ${memoryLine} (${today()}).\n\n${table}`;
  console.log(body);
  if (!values['no-write']) {
    const results = join(ROOT, 'bench', 'RESULTS.md');
    writeFileSync(results, replaceSection(readFileSync(results, 'utf8'), 'Real-time soak (issue 16)', body));
  }
} finally {
  await thread.terminate();
  await svc.stop();
}
