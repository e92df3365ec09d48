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
import { expectedByTopics, busyPrincipals, mappedStoreMb, memoryMb } from './expected.ts';
import { underMemoryPressure } from './pressure.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '1' },
    subscribers: { type: 'string', default: '200' },
    rate: { type: 'string', default: '100' },
    seed: { type: 'string', default: 'soak' },
    // Shares of block, mempool and address subscribers: wallets each follow their own address; the
    // block and mempool feeds are what explorers take.
    mix: { type: 'string', default: 'block=10,mempool=1,address=89' },
    // Address subscribers are spread evenly over the chain's principals, busiest to quietest (as
    // wallets are), or over only this many of the busiest.
    principals: { type: 'string', default: 'all' },
    // The generated chain's mean txs per block and per mempool announcement: at 100 requests/s,
    // 2 and 1 make about a hundred txs a second (mainnet has a few), each announced then mined.
    'block-txs': { type: 'string', default: '2' },
    'mempool-batch': { type: 'string', default: '1' },
    'no-write': { type: 'boolean', default: false },
    // At the end, another process takes all but 1.5 GiB of the available memory for a moment: shows
    // how much of the service's resident memory the kernel can take back (mapped file pages).
    pressure: { type: 'boolean', default: false },
    // Extra node arguments for the service (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it).
    'service-node-args': { type: 'string', default: '' },
  },
});
const minutes = Number(values.minutes);
const subscribers = Number(values.subscribers);
const rate = Number(values.rate);
const rowsWanted = Math.ceil(minutes * 60 * rate);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

console.log(`generating a chain for ${rowsWanted} requests…`);
const file = join(tmpdir(), `soak-${values.seed}-${rowsWanted}-${values['block-txs']}-${values['mempool-batch']}.tsv`);
const chain = defaultOptions(Math.ceil(rowsWanted * 4) + 2000, values.seed);
chain.blockTxs = Number(values['block-txs']);
chain.mempool.maxBatch = Number(values['mempool-batch']);
await generateFile(chain, file, false);
const principals = busyPrincipals(file, values.principals === 'all' ? Infinity : Number(values.principals));
const shares = Object.fromEntries(values.mix.split(',').map((p) => p.split('=')).map(([k, v]) => [k, Number(v)])) as Record<Kind, number>;

const kindOf = (i: number): Kind => {
  // The mix's shares as percentages, laid out evenly: i·37 mod 100 visits every percentile once
  // in each hundred subscribers.
  const pct = (k: Kind) => (shares[k] * 100) / (shares.block + shares.mempool + shares.address);
  const at = (i * 37) % 100;
  return at < pct('block') ? 'block' : at < pct('block') + pct('mempool') ? 'mempool' : 'address';
};
const addressCount = Array.from({ length: subscribers }, (_, i) => kindOf(i)).filter((k) => k === 'address').length;
let addressed = 0;
function planOf(i: number): SubscriberPlan {
  const kind = kindOf(i);
  const principal = kind === 'address' ? principals[Math.floor((addressed++ * principals.length) / Math.max(1, addressCount)) % principals.length] : principals[0];
  return { kind, principal, channel: i % 2 === 0 ? 'socket.io' : 'json-rpc' };
}

// The journal keeps the whole run, so the expected messages can be replayed from its start.
const svc = await startBenchService({
  env: { STACKS_API_WS_JOURNAL_ENTRIES: String(rowsWanted * 2 + 10_000) },
  nodeArgs: values['service-node-args'].split(' ').filter(Boolean),
});
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
type MemorySample = { rss: number; anon: number; file: number; heap: number; engine: number; releases: number; store: { resident: number; onDisk: number } };
const memory: Array<[number, MemorySample]> = [];
/** From /metrics, MB: the V8 heap in use and the memory ClickHouse tracks, the two parts of the
 *  service's anonymous memory that can be named. */
async function namedMb(): Promise<{ heap: number; engine: number; releases: number }> {
  const text = await fetch(`${svc.apiUrl}/metrics`).then((r) => r.text()).catch(() => '');
  const mb = (re: RegExp) => {
    const m = re.exec(text);
    return m ? Number(m[1]) / 2 ** 20 : NaN;
  };
  const releases = /^stacks_serving_store_page_releases_total (\S+)$/m.exec(text);
  return { heap: mb(/^nodejs_heap_size_used_bytes (\S+)$/m), engine: mb(/^stacks_clickhouse_memory_bytes\{kind="tracked"\} (\S+)$/m), releases: releases ? Number(releases[1]) : 0 };
}
try {
  const counts = { block: 0, mempool: 0, address: 0 };
  for (const p of plan) counts[p.kind]++;
  console.log(`connecting ${subscribers} subscribers (${counts.block} block, ${counts.mempool} mempool, ${counts.address} address spread over ${principals.length} principals)…`);
  await fromThread('ready');
  const start = performance.now();
  const sample = async () => {
    const at = (performance.now() - start) / 1000;
    const named = await namedMb();
    memory.push([at, { ...memoryMb(svc.child.pid!), ...named, store: mappedStoreMb(svc.child.pid!) }]);
  };
  const memoryTimer = setInterval(() => void sample(), Math.max(5000, (minutes * 60_000) / 30));
  await sample();
  console.log(`feeding ${rate} requests/s for ${minutes} min…`);
  let id = 0;
  let txsFed = 0;
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
    if (row.path === '/new_block') txsFed += (JSON.parse(row.payload) as { transactions: unknown[] }).transactions.length;
    id++;
  }
  console.log(`fed ${id} requests; waiting for processing…`);
  await waitForProcessing(svc.apiUrl, 600_000);
  console.log('processed; replaying the journal for the expected messages…');
  await sleep(3000);
  clearInterval(memoryTimer);
  await sample();
  const done = fromThread('done');
  thread.postMessage('finish');
  const result = await done;
  const tallies = result.tallies as Tally[];
  const latency = Latency.from(result.latency as Array<[number, number]>);
  const byGroup = (result.byGroup as Array<[string, Array<[number, number]>]>).map(([g, e]) => [g, Latency.from(e)] as const).sort(([a], [b]) => a.localeCompare(b));
  // Stalls: the feed's seconds whose slowest message took over 5 s.
  const worstBySecond = new Map<number, number>();
  for (const [logId, ms] of result.worst as Array<[number, number]>) {
    const second = Math.floor(logId / rate);
    worstBySecond.set(second, Math.max(worstBySecond.get(second) ?? 0, ms));
  }
  const stalls = [...worstBySecond].filter(([, ms]) => ms > 5000).sort(([a], [b]) => a - b);
  const stallLine = stalls.length === 0 ? 'none' : stalls.map(([s, ms]) => `${s} s: ${(ms / 1000).toFixed(1)} s`).join(', ');
  const groupLine = byGroup.map(([g, l]) => `${g} ${l.percentile(50)} / ${l.percentile(99)}`).join(', ');

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
  const memoryLine = memory.map(([s, m]) => `${Math.round(s)} s: ${m.rss.toFixed(0)} (${m.anon.toFixed(0)} [${m.heap.toFixed(0)} V8, ${m.engine.toFixed(0)} engine] + ${m.file.toFixed(0)} [${m.store.resident.toFixed(0)} store pages])`).join(', ');
  const warm = memory.filter(([s]) => s >= Math.min(300, (minutes * 60) / 3));
  const span = (pick: (m: MemorySample) => number) => {
    const v = warm.map(([, m]) => pick(m));
    return `${v[0].toFixed(0)} → ${v[v.length - 1].toFixed(0)} MB (${Math.min(...v).toFixed(0)}–${Math.max(...v).toFixed(0)})`;
  };
  const last = memory[memory.length - 1][1];
  const warmLine = warm.length < 2 ? '' : ` From ${Math.round(warm[0][0])} s to the end: RSS ${span((m) => m.rss)}; anonymous ${span((m) => m.anon)}; RSS without the mapped store pages ${span((m) => m.rss - m.store.resident)}; mapped store pages ${span((m) => m.store.resident)}, the store files ${last.store.onDisk.toFixed(0)} MB on disk at the end; the store's mapped pages were given back ${last.releases} times (STACKS_API_STORE_RESIDENT_MB).`;
  let pressureLine = '';
  if (values.pressure) {
    const p = await underMemoryPressure(() => ({ ...memoryMb(svc.child.pid!), store: mappedStoreMb(svc.child.pid!).resident }));
    pressureLine = ` With another process holding ${p.takenGb.toFixed(1)} GB for a moment (all but 1.5 GiB of what was available), the service's RSS went ${p.before.rss.toFixed(0)} → ${p.during.rss.toFixed(0)} MB: file-backed ${p.before.file.toFixed(0)} → ${p.during.file.toFixed(0)} (mapped store pages ${p.before.store.toFixed(0)} → ${p.during.store.toFixed(0)}), anonymous ${p.before.anon.toFixed(0)} → ${p.during.anon.toFixed(0)}.`;
  }
  const closedLine = closed === 0 ? '' : ` Closed early: ${[...reasons].map(([r, n]) => `${n} × "${r}"`).join(', ')}.`;
  const table = [
    '| minutes | subscribers | rate req/s | requests | expected | messages/s | received | missed | duplicated / out of order | wrong set | closed early | latency p50 ms | p99 ms | machine | commit |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${minutes} | ${subscribers} | ${rate} | ${f(id)} | ${f(exp)} | ${f(Math.round(exp / (minutes * 60)))} | ${f(got)} | ${f(missed)} | ${f(duplicated)} | ${mismatched} | ${closed} | ${latency.percentile(50)} | ${latency.percentile(99)} | ${machine()} | ${commit()} |`,
  ].join('\n');
  const body = `Subscribers of both channels (official client, on a thread of their own; half Socket.IO, half JSON-RPC): ${counts.block} on \`block\`, ${counts.mempool} on \`mempool\`, ${counts.address} on the tx and balance topics of an address, spread evenly over the ${principals.length} principals of the chain's first 32 MB ranked by activity. They are held while a generated chain (mean ${values['block-txs']} user txs per block, ${values['mempool-batch']} per mempool announcement; ${f(Math.round(txsFed / (minutes * 60)))} txs/s) is POSTed to the observer at a fixed rate, on loopback. Expected = the journal replayed by cursor from the start for each subscriber's topics; "wrong set" = as many as expected but not the same cursors. Latency: observer POST sent → message received; p50 / p99 ms by subscriber kind and channel: ${groupLine}; seconds of the feed whose slowest message took over 5 s: ${stallLine}.${closedLine} Service memory over time, MB: RSS (anonymous [of which the V8 heap in use, and what ClickHouse tracks] + file-backed; the file-backed part is the program's code and the pages of the memory-mapped serving store read since their last release, which comes once file-backed RSS grows by STACKS_API_STORE_RESIDENT_MB): ${memoryLine}.${warmLine}${pressureLine} (${today()}).\n\n${table}`;
  console.log(body);
  if (!values['no-write']) {
    const results = join(ROOT, 'bench', 'RESULTS.md');
    writeFileSync(results, replaceSection(readFileSync(results, 'utf8'), 'Real-time soak (issue 16)', body));
  }
} finally {
  await thread.terminate();
  await svc.stop();
}
