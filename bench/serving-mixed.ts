// `npx tsx bench/serving-mixed.ts --store DIR --tail FILE [--seconds 30]`: the serving bench's mixed
// row alone, on a store it left behind (e.g. the 1M-tx store with 90% of the log): every target case
// interleaved at 32 clients, response cache off, while the log's tail is POSTed to the observer.
// Reports reads and the txs/s ingested meanwhile; writes "Serving path: mixed reads while ingesting".
import { parseArgs } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { runCli, ROOT } from './lib/run-cli.ts';
import { machine, commit, today } from './lib/env.ts';
import type { QueryTargets } from './query/targets.ts';
import { startBenchService } from './lib/service.ts';
import { replaceSection } from './lib/results.ts';
import { cases, mixedWhileIngesting } from './lib/serving-cases.ts';

const { values } = parseArgs({ options: { store: { type: 'string' }, tail: { type: 'string' }, seconds: { type: 'string', default: '30' } } });
if (!values.store || !values.tail) throw new Error('--store DIR and --tail FILE are required');
const t = await runCli('bench/query/targets.ts', [], { STACKS_API_DATA_DIR: values.store });
const targets = JSON.parse(t.output.trim().split('\n').at(-1)!) as QueryTargets;
const load = loadavg()[0];
const svc = await startBenchService({ dataDir: values.store, env: { STACKS_API_RESPONSE_CACHE_MB: '0' } });
try {
  const { mixed, ingestRate } = await mixedWhileIngesting(svc, cases(targets), values.tail, { requests: 1_000_000, seconds: Number(values.seconds) });
  const met = mixed.rps >= 1500 && mixed.p99 <= 50 && ingestRate >= 3000;
  const body = [
    `\`npx tsx bench/serving-mixed.ts --store <dir> --tail <file> --seconds ${values.seconds}\` (${today()}): every target case interleaved at 32 closed-loop clients, response cache off, while the log's tail is POSTed to the observer as a node would. Load average at the start ${load.toFixed(1)}.`,
    '',
    '| reads | req/s | p50 ms | p99 ms | ingested meanwhile, txs/s | target | met | machine | commit |',
    '|---|---|---|---|---|---|---|---|---|',
    `| ${mixed.requests} | ${mixed.rps.toFixed(0)} | ${mixed.p50.toFixed(1)} | ${mixed.p99.toFixed(1)} | ${ingestRate.toFixed(0)} | ≥ 1,500 req/s (p99 ≤ 50 ms) while ingest ≥ 3,000 txs/s | ${met ? 'yes' : 'no'} | ${machine()} | ${commit()} |`,
  ].join('\n');
  console.log(body);
  const results = join(ROOT, 'bench', 'RESULTS.md');
  writeFileSync(results, replaceSection(readFileSync(results, 'utf8'), 'Serving path: mixed reads while ingesting', body));
} finally {
  await svc.stop();
}
