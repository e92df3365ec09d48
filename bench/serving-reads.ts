// `npx tsx bench/serving-reads.ts --store <data dir> [--clients 32] [--seconds 10] [--cases regex]`:
// the read cases of `npm run bench:serving` on a stored chain, without importing it: each case in a
// closed loop, response cache off, a different id each request, with the service's CPU per answer
// (its process's user + system time over the run, from /proc) beside req/s and p99 — the figure to
// compare between two versions when the machine's other work moves throughput (issue 32).
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { runCli } from './lib/run-cli.ts';
import { closedLoop } from './query/load.ts';
import type { QueryTargets } from './query/targets.ts';
import { startBenchService } from './lib/service.ts';
import { cases } from './lib/serving-cases.ts';
import { waitQuiet } from './lib/quiet.ts';

const { values } = parseArgs({ options: { store: { type: 'string' }, clients: { type: 'string', default: '32' }, seconds: { type: 'string', default: '10' }, cases: { type: 'string' } } });
if (!values.store) throw new Error('--store <data dir> is required');

/** CPU seconds the process has used (all its threads). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

const t = await runCli('bench/query/targets.ts', [], { STACKS_API_DATA_DIR: values.store });
const targets = JSON.parse(t.output.trim().split('\n').at(-1)!) as QueryTargets;
const svc = await startBenchService({ dataDir: values.store, env: { STACKS_API_RESPONSE_CACHE_MB: '0' } });
try {
  await waitQuiet(svc.child.pid!);
  const filter = values.cases ? new RegExp(values.cases) : undefined;
  const clients = Number(values.clients);
  console.log('| case | clients | requests | req/s | p50 ms | p99 ms | server CPU µs per answer |\n|---|---|---|---|---|---|---|');
  let run = 0;
  for (const cs of cases(targets)) {
    if (filter && !filter.test(cs.name)) continue;
    await closedLoop(svc.apiUrl, cs.name, cs.path, 4, { requests: 500, seconds: 5 });
    // A different id each request: the offset moves past the ids the warm-up and earlier runs used.
    const base = ++run * 10_000;
    const c0 = cpuSeconds(svc.child.pid!);
    const r = await closedLoop(svc.apiUrl, cs.name, (i) => cs.path(base + i), clients, { requests: 100_000, seconds: Number(values.seconds) });
    const cpu = cpuSeconds(svc.child.pid!) - c0;
    console.log(`| ${r.name} | ${clients} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${((cpu / r.requests) * 1e6).toFixed(0)} |`);
  }
} finally {
  await svc.stop();
}
