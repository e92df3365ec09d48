// `npx tsx bench/query/profile.ts --data <dir> --case "tx by id" [--clients 32] [--seconds 20] [--cache]`
// Where one query case's CPU goes: starts the service on a populated store under `node --cpu-prof`
// (without the response cache unless --cache), runs the case closed-loop, and prints the rate and
// latency, the service's CPU per request by thread group (from /proc), and the main thread's
// heaviest functions. The store is read by one process at a time (chdb), so nothing else may hold it.
import { parseArgs } from 'node:util';
import { mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism, tmpdir } from 'node:os';
import { runCli } from '../lib/run-cli.ts';
import { startBenchService } from '../lib/service.ts';
import { closedLoop } from './load.ts';
import { queryCases } from './suite.ts';
import type { QueryTargets } from './targets.ts';
import { cpuBetween, threadCpu, topSelfTime } from '../lib/cpu-profile.ts';

const { values } = parseArgs({
  options: { data: { type: 'string' }, case: { type: 'string', default: 'tx by id' }, clients: { type: 'string', default: '32' }, seconds: { type: 'string', default: '20' }, cache: { type: 'boolean', default: false } },
});
if (!values.data) throw new Error('--data <populated data dir> is required');
const found = await runCli('bench/query/targets.ts', [], { STACKS_API_DATA_DIR: values.data });
const targets = JSON.parse(found.output.trim().split('\n').at(-1)!) as QueryTargets;
const c = queryCases(targets).find((x) => x.name.startsWith(values.case!));
if (!c) throw new Error(`no query case starts with "${values.case}": ${queryCases(targets).map((x) => x.name).join('; ')}`);

const profileDir = mkdtempSync(join(tmpdir(), 'query-profile-'));
const svc = await startBenchService({
  dataDir: values.data,
  env: values.cache ? {} : { STACKS_API_RESPONSE_CACHE_MB: '0' },
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
});
const pid = svc.child.pid!;
try {
  // Warm connections, caches of the engine's marks and our known-canonical blocks.
  await closedLoop(svc.apiUrl, c.name, c.path, 4, { requests: 100, seconds: 20 });
  const before = threadCpu(pid);
  const r = await closedLoop(svc.apiUrl, c.name, c.path, Number(values.clients), { requests: Number.MAX_SAFE_INTEGER, seconds: Number(values.seconds) });
  const after = threadCpu(pid);
  console.log(`${c.name}, ${r.clients} clients${values.cache ? '' : ', no response cache'}: ${r.requests} requests in ${r.seconds.toFixed(1)} s = ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} / p99 ${r.p99.toFixed(1)} ms, ${r.errors} errors`);
  console.log('service CPU per request, by thread group:');
  const split = cpuBetween(before, after);
  const total = split.reduce((n, [, s]) => n + s, 0);
  for (const [name, s] of split) console.log(`  ${((s * 1000) / r.requests).toFixed(2).padStart(8)} ms  ${name}`);
  console.log(`  ${((total * 1000) / r.requests).toFixed(2).padStart(8)} ms  all (${(total / r.seconds).toFixed(2)} of ${availableParallelism()} cores busy in the service)`);
} finally {
  await svc.stop();
}
const main = readdirSync(profileDir).find((f) => new RegExp(`\\.${pid}\\.0\\.`).test(f));
if (main) {
  const p = topSelfTime(join(profileDir, main), 15);
  console.log(`main thread (--cpu-prof, whole run incl. start-up): ${(p.sampledMs / 1000).toFixed(1)} s sampled, ${((p.idleMs / p.sampledMs) * 100).toFixed(0)}% idle; heaviest self time:`);
  for (const [label, ms] of p.top) console.log(`  ${ms.toFixed(0).padStart(7)} ms  ${label}`);
  console.log(`profiles: ${profileDir}`);
}
