// Soak bench of the real-time channels: N subscribers (half Socket.IO, half JSON-RPC; a third each
// on blocks, the mempool and one busy address) held for a fixed time while a generated chain is
// POSTed live to the observer at a fixed rate. Reports messages expected, received, missed and
// duplicated, the service's RSS over time, and delivery latency from the observer POST to receipt.
// Everything on loopback; bounded by --minutes (then a short drain).
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
import { SubscriberPool, type Kind } from './subscribers.ts';
import { expectedByTopics, busyPrincipals, rssMb } from './expected.ts';

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '1' }, subscribers: { type: 'string', default: '200' }, rate: { type: 'string', default: '100' }, seed: { type: 'string', default: 'soak' }, 'no-write': { type: 'boolean', default: false } } });
const minutes = Number(values.minutes);
const subscribers = Number(values.subscribers);
const rate = Number(values.rate);
const rowsWanted = Math.ceil(minutes * 60 * rate);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

console.log(`generating a chain for ${rowsWanted} requests…`);
const file = join(tmpdir(), `soak-${values.seed}-${rowsWanted}.tsv`);
await generateFile(defaultOptions(Math.ceil(rowsWanted * 4) + 2000, values.seed), file, false);
const principals = busyPrincipals(file, 20);

// The journal keeps the whole run, so the expected messages can be replayed from its start.
const svc = await startBenchService({ env: { STACKS_API_WS_JOURNAL_ENTRIES: String(rowsWanted * 2 + 10_000) } });
const postedAt = new Map<number, number>();
const pool = new SubscriberPool(svc.apiUrl, (id) => postedAt.get(id));
const rss: Array<[number, number]> = [];
try {
  const kinds: Kind[] = ['block', 'mempool', 'address'];
  console.log(`connecting ${subscribers} subscribers…`);
  for (let i = 0; i < subscribers; i++) {
    const kind = kinds[i % 3];
    const principal = principals[i % principals.length];
    await (i % 2 === 0 ? pool.addSocketIo(kind, principal) : pool.addJsonRpc(kind, principal));
  }
  const start = performance.now();
  const rssTimer = setInterval(() => rss.push([(performance.now() - start) / 1000, rssMb(svc.child.pid!)]), Math.max(5000, (minutes * 60_000) / 30));
  rss.push([0, rssMb(svc.child.pid!)]);
  console.log(`feeding ${rate} requests/s for ${minutes} min…`);
  let id = 0;
  for await (const row of readTsvRows(file)) {
    const due = start + (id * 1000) / rate;
    if (due - start > minutes * 60_000) break;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const t0 = performance.now();
    const res = await fetch(`${svc.eventUrl}${row.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: row.payload });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`POST ${row.path}: ${res.status}`);
    postedAt.set(++id, t0);
  }
  console.log(`fed ${id} requests; waiting for processing…`);
  await waitForProcessing(svc.apiUrl, 600_000);
  console.log('processed; replaying the journal for the expected messages…');
  await sleep(3000);
  clearInterval(rssTimer);
  rss.push([(performance.now() - start) / 1000, rssMb(svc.child.pid!)]);

  // What each subscriber should have had: the journal replayed from the start for its topics.
  const expected = await expectedByTopics(svc.apiUrl, [...new Set(pool.tallies.map((t) => t.topics.join(',')))]).catch((e: unknown) => {
    console.error(`the service's output:\n${svc.output().slice(-4000)}`);
    throw e;
  });
  let exp = 0;
  let got = 0;
  let missed = 0;
  let duplicated = 0;
  let mismatched = 0;
  let closed = 0;
  for (const t of pool.tallies) {
    const e = expected.get(t.topics.join(','))!;
    exp += e.count;
    got += t.received;
    duplicated += t.notAfter;
    missed += Math.max(0, e.count - (t.received - t.notAfter));
    if (t.received - t.notAfter === e.count && t.sum !== e.sum) mismatched++;
    if (t.closed) closed++;
  }
  const f = (n: number) => n.toLocaleString('en-US');
  const rssLine = rss.map(([s, mb]) => `${Math.round(s)} s: ${mb.toFixed(0)}`).join(', ');
  const table = [
    '| minutes | subscribers | rate req/s | requests | expected | received | missed | duplicated / out of order | wrong set | closed early | latency p50 ms | p99 ms | machine | commit |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${minutes} | ${subscribers} | ${rate} | ${f(id)} | ${f(exp)} | ${f(got)} | ${f(missed)} | ${f(duplicated)} | ${mismatched} | ${closed} | ${pool.latency.percentile(50)} | ${pool.latency.percentile(99)} | ${machine()} | ${commit()} |`,
  ].join('\n');
  const body = `Subscribers of both channels (official client; a third each on \`block\`, \`mempool\` and one of ${principals.length} busy addresses' tx and balance topics) held while a generated chain is POSTed to the observer at a fixed rate, on loopback. Expected = the journal replayed by cursor from the start for each subscriber's topics; "wrong set" = as many as expected but not the same cursors. Latency: observer POST sent → message received. Service RSS (MB) over time: ${rssLine} (${today()}).\n\n${table}`;
  console.log(body);
  if (!values['no-write']) {
    const results = join(ROOT, 'bench', 'RESULTS.md');
    writeFileSync(results, replaceSection(readFileSync(results, 'utf8'), 'Real-time soak (issue 16)', body));
  }
} finally {
  pool.close();
  await svc.stop();
}
