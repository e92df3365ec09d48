// The read cases at 1 and at 2 API threads (issue 35): each thread count a service of its own on the
// same stored chain, the response cache off, every case at 32 closed-loop clients (their
// connections spread over the threads by the kernel), and the ratio of each rate to the
// reference API's on the side-by-side 100k-tx chain.
import { loadavg } from 'node:os';
import { closedLoop, type LoadResult } from '../query/load.ts';
import { haveWrk, wrkLoop } from '../query/wrk.ts';
import { startBenchService } from './service.ts';
import { waitQuiet } from './quiet.ts';
import type { Case } from './serving-cases.ts';

export interface ThreadRun {
  threads: number;
  rows: Array<LoadResult & { reference?: number }>;
  /** 1-minute load average before and after the run (2 cores: above ~2, other work shared them). */
  load: [number, number];
  /** Canonical txs the store answers (the tx list's total). */
  txs: number;
  /** The load generator: wrk (C, when installed) or undici (in a Node process). */
  client: LoadClient;
}

export type LoadClient = 'wrk' | 'undici';

/** wrk when it is installed, else undici. */
export const defaultLoadClient = (): LoadClient => (haveWrk() ? 'wrk' : 'undici');

const CLIENTS = 32;

export async function runAtThreadCounts(store: string, list: Case[], threads: number[], limits: { requests: number; seconds: number; repeats?: number }, client: LoadClient = 'undici'): Promise<ThreadRun[]> {
  const runs: ThreadRun[] = [];
  for (const n of threads) {
    const svc = await startBenchService({ dataDir: store, env: { STACKS_API_RESPONSE_CACHE_MB: '0', STACKS_API_THREADS: String(n) } });
    try {
      await waitQuiet(svc.child.pid!, { maxS: 120 });
      const txs = ((await (await fetch(`${svc.apiUrl}/extended/v1/tx?limit=1`)).json()) as { total: number }).total;
      const before = loadavg()[0];
      const rows: ThreadRun['rows'] = [];
      for (const [k, cs] of list.entries()) {
        await closedLoop(svc.apiUrl, cs.name, cs.path, 4, { requests: 500, seconds: 5 });
        // A different id each request, and other ids than the other thread count's run asked.
        const base = (k + 1) * 1_000_000 + n * 100_000;
        // Runs of one build differ by up to ~20% here: each case is run `repeats` times and the
        // run with the median rate is kept.
        const tries: LoadResult[] = [];
        for (let t = 0; t < (limits.repeats ?? 1); t++) {
          const from = base + t * 20_000;
          tries.push(
            client === 'wrk'
              ? await wrkLoop(svc.apiUrl, cs.name, Array.from({ length: 20_000 }, (_, i) => cs.path(from + i)), CLIENTS, limits.seconds)
              : await closedLoop(svc.apiUrl, cs.name, (i) => cs.path(from + i), CLIENTS, limits),
          );
        }
        const r = tries.sort((a, b) => a.rps - b.rps)[tries.length >> 1];
        rows.push({ ...r, reference: cs.reference });
        console.log(`${n} API thread(s), ${cs.name} @${CLIENTS}: ${r.rps.toFixed(0)} req/s${tries.length > 1 ? ` (median of ${tries.map((x) => x.rps.toFixed(0)).join(', ')})` : ''} p99 ${r.p99.toFixed(1)} ms${r.errors ? ` (${r.errors} errors)` : ''}${cs.reference ? `, ${(r.rps / cs.reference).toFixed(1)}× the reference` : ''}`);
      }
      runs.push({ threads: n, rows, load: [before, loadavg()[0]], txs, client });
    } finally {
      await svc.stop();
    }
  }
  return runs;
}

/** One row per case: the reference's rate, then each thread count's rate, ratio and p99. */
export function threadsTable(runs: ThreadRun[]): string {
  const head = ['case', 'reference req/s', ...runs.flatMap((r) => [`${r.threads} thr req/s`, `${r.threads} thr × ref`, `${r.threads} thr p50 / p99 ms`])];
  if (runs.length === 2) head.push(`${runs[1].threads} vs ${runs[0].threads} thr`);
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const [i, row] of runs[0].rows.entries()) {
    const ref = row.reference;
    const cells = [row.name, ref ? String(ref) : '–'];
    for (const run of runs) {
      const r = run.rows[i];
      cells.push(r.rps.toFixed(0), ref ? `${(r.rps / ref).toFixed(1)}×` : '–', `${r.p50.toFixed(1)} / ${r.p99.toFixed(1)}`);
    }
    if (runs.length === 2) cells.push(`${(runs[1].rows[i].rps / runs[0].rows[i].rps).toFixed(2)}×`);
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

export const loadNote = (runs: ThreadRun[]): string => runs.map((r) => `${r.threads} thread(s): load average ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}`).join('; ');
