// Live-mode benchmark: a running service receives a log's requests one at a time as a node delivers
// them, at a fixed rate or (rate 0) each as soon as the previous one is acknowledged. Reports the
// node-side ack latency, how far processing lags, and the throughput from the first POST to the
// last entry processed, with the service's CPU.
import { Pool } from 'undici';
import { startBenchService } from '../lib/service.ts';
import { readTsvRows } from '../../src/ingest/tsv/read-tsv.ts';
import { percentile } from '../lib/env.ts';
import { cpuBetween, processCpuSeconds, threadCpu } from '../lib/cpu-profile.ts';
import { metricValue } from '../../src/testing/compare-services.ts';

export interface LiveResult {
  label: string;
  ratePerSec: number;
  sent: number;
  ackP50: number;
  ackP99: number;
  ackMax: number;
  /** Mean ack, and the share of the sending time spent waiting for acks (at rate 0, the rest is
   *  this client's own work between them: reading the log, undici). */
  ackMean: number;
  ackShare: number;
  lagP50Ms: number;
  lagP99Ms: number;
  maxBehind: number;
  drainSeconds: number;
  /** Txs in the blocks sent, first POST to everything processed, and the service's CPU over it. */
  txs: number;
  processedSeconds: number;
  serviceCpuSeconds: number;
  /** Batches the processor stored over the run (each a ClickHouse insert and a serving commit). */
  batches: number;
  /** Acks by how long they took (upper bounds in ms): how many, and their share of all ack time. */
  ackBuckets: Array<{ upToMs: number; count: number; share: number }>;
  /** This client's own CPU seconds over the run (it shares the machine with the service). */
  clientCpuSeconds: number;
  /** Entries whose decode the processor took from the observer instead of the pool. */
  handedOver: number;
  /** The service's CPU seconds over the run, by thread group. */
  threads: Array<[string, number]>;
}

/** Txs a /new_block body carries (each has a raw_tx). */
const txsIn = (path: string, payload: string): number => (path === '/new_block' ? payload.split('"raw_tx"').length - 1 : 0);

export async function live(file: string, label: string, ratePerSec: number, maxRequests: number, nodeArgs: string[] = []): Promise<LiveResult> {
  const svc = await startBenchService({ nodeArgs });
  const pool = new Pool(svc.eventUrl, { connections: 1 });
  const acks: number[] = [];
  const postedAt = new Map<number, number>();
  const lags: number[] = [];
  let maxBehind = 0;
  let processedSeen = 0;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const res = await fetch(`${svc.apiUrl}/extended`);
      const body = (await res.json()) as { event_log: { processed_id: number; behind: number } };
      const now = performance.now();
      maxBehind = Math.max(maxBehind, body.event_log.behind);
      for (let id = processedSeen + 1; id <= body.event_log.processed_id; id++) {
        const t = postedAt.get(id);
        if (t !== undefined) lags.push(now - t);
      }
      processedSeen = Math.max(processedSeen, body.event_log.processed_id);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const start = performance.now();
  const cpu0 = processCpuSeconds(svc.child.pid!);
  const clientCpu0 = process.cpuUsage();
  const threads0 = threadCpu(svc.child.pid!);
  let i = 0;
  let txs = 0;
  for await (const row of readTsvRows(file)) {
    if (i >= maxRequests) break;
    if (ratePerSec > 0) {
      const due = start + (i * 1000) / ratePerSec;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    txs += txsIn(row.path, row.payload);
    const t0 = performance.now();
    const res = await pool.request({ path: row.path, method: 'POST', headers: { 'content-type': 'application/json' }, body: row.payload });
    await res.body.arrayBuffer();
    acks.push(performance.now() - t0);
    if (res.statusCode !== 200) throw new Error(`POST ${row.path} answered ${res.statusCode}`);
    postedAt.set(++i, t0);
  }
  const sentAt = performance.now();
  const ackSum = acks.reduce((a, b) => a + b, 0);
  while (processedSeen < i) await new Promise((r) => setTimeout(r, 20));
  const drainSeconds = (performance.now() - sentAt) / 1000;
  const processedSeconds = (performance.now() - start) / 1000;
  const serviceCpuSeconds = processCpuSeconds(svc.child.pid!) - cpu0;
  const clientCpu = process.cpuUsage(clientCpu0);
  const clientCpuSeconds = (clientCpu.user + clientCpu.system) / 1e6;
  const threads = cpuBetween(threads0, threadCpu(svc.child.pid!));
  const batches = await metricValue(svc.apiUrl, 'stacks_ingest_batches_total');
  const handedOver = await metricValue(svc.apiUrl, 'stacks_ingest_handed_over_total');
  polling = false;
  await poller;
  await pool.close();
  await svc.stop();
  acks.sort((a, b) => a - b);
  const ackBuckets = [1, 2, 5, 20, 100, Infinity].map((upToMs, k, all) => {
    const inBucket = acks.filter((a) => a <= upToMs && (k === 0 || a > all[k - 1]));
    return { upToMs, count: inBucket.length, share: inBucket.reduce((x, y) => x + y, 0) / Math.max(1e-9, ackSum) };
  });
  lags.sort((a, b) => a - b);
  return { label, ratePerSec, sent: i, ackP50: percentile(acks, 50), ackP99: percentile(acks, 99), ackMax: acks.at(-1) ?? NaN, ackMean: ackSum / Math.max(1, acks.length), ackShare: ackSum / Math.max(1, sentAt - start), ackBuckets, clientCpuSeconds, lagP50Ms: percentile(lags, 50), lagP99Ms: percentile(lags, 99), maxBehind, drainSeconds, txs, processedSeconds, serviceCpuSeconds, batches, handedOver, threads };
}

export function liveTable(rows: LiveResult[], machine: string, commit: string): string {
  const head =
    '| log | rate req/s | sent | txs | first POST to processed s | txs/s | service CPU-s (µs per tx) | ack p50 ms | ack p99 ms | ack max ms | ack mean ms (share of sending) | processed after p50 ms | p99 ms | max entries behind | drain s | batches | machine | commit |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|';
  const f = (n: number, d = 1) => n.toFixed(d);
  return [
    head,
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.ratePerSec || 'as acked'} | ${r.sent} | ${r.txs} | ${f(r.processedSeconds)} | ${Math.round(r.txs / r.processedSeconds)} | ${f(r.serviceCpuSeconds)} (${Math.round((r.serviceCpuSeconds / Math.max(1, r.txs)) * 1e6)}) | ${f(r.ackP50, 2)} | ${f(r.ackP99, 2)} | ${f(r.ackMax, 1)} | ${f(r.ackMean, 2)} (${Math.round(r.ackShare * 100)}%) | ${f(r.lagP50Ms)} | ${f(r.lagP99Ms)} | ${r.maxBehind} | ${f(r.drainSeconds)} | ${r.batches} | ${machine} | ${commit} |`,
    ),
  ].join('\n');
}

// `npx tsx bench/ingest/live.ts --file <log.tsv> [--rate 100 | --rate 0] [--requests 2000] [--node-arg=--cpu-prof ...]`:
// one live run, printed (rate 0: each request as soon as the previous one is acknowledged, as a node does).
if (import.meta.url === `file://${process.argv[1]}`) {
  const { parseArgs } = await import('node:util');
  const { machine, commit } = await import('../lib/env.ts');
  const { values } = parseArgs({ options: { file: { type: 'string' }, rate: { type: 'string', default: '100' }, requests: { type: 'string', default: '2000' }, 'node-arg': { type: 'string', multiple: true } } });
  if (!values.file) throw new Error('--file <log.tsv> is required');
  const r = await live(values.file, values.file, Number(values.rate), Number(values.requests), values['node-arg'] ?? []);
  console.log(liveTable([r], machine(), commit()));
  console.log(`\nDecodes handed over by the observer: ${r.handedOver} of ${r.sent} entries.`);
  console.log(`\nCores busy over the run: the service ${(r.serviceCpuSeconds / r.processedSeconds).toFixed(2)}, this client ${(r.clientCpuSeconds / r.processedSeconds).toFixed(2)}.`);
  console.log(`\nAcks by time (ms): ${r.ackBuckets.map((b) => `<=${b.upToMs} ${b.count} (${Math.round(b.share * 100)}% of ack time)`).join('; ')}`);
  console.log(`\nThe service's CPU by thread, µs a tx: ${r.threads.map(([name, s]) => `${name} ${Math.round((s / Math.max(1, r.txs)) * 1e6)}`).join('; ')}`);
}
