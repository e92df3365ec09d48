// `npm run bench:serving [-- --txs 1000000 --skip-baseline --skip-rebuild]`: the serving path's targets (issue 12)
// on a generated store. Imports 90% of the log (with the serving store, and once without it for its
// ingest cost), reports the store's size and rebuild time, runs each target case at 1, 8 and 32
// closed-loop clients with the response cache off and every request a different id, then all cases
// mixed while the last 10% is POSTed to the observer. Writes "Serving path" into bench/RESULTS.md.
import { parseArgs } from 'node:util';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, ROOT } from './lib/run-cli.ts';
import { generate, split, OUT } from './lib/chains.ts';
import { machine, commit, today } from './lib/env.ts';
import { replay, ingestTable, type IngestResult } from './ingest/replay.ts';
import { closedLoop, type LoadResult } from './query/load.ts';
import type { QueryTargets } from './query/targets.ts';
import { startBenchService } from './lib/service.ts';
import { replaceSection } from './lib/results.ts';
import { cases, mixedWhileIngesting, readCases, type Case } from './lib/serving-cases.ts';
import { defaultLoadClient, runAtThreadCounts } from './lib/serving-threads.ts';
import { THREADS_SECTION, threadsSection } from './serving-threads.ts';
import { dirBytes } from '../src/serving/size.ts';
import { openServingStore } from '../src/serving/store.ts';
import { dbSizesText } from './lib/serving-dbs.ts';
import { waitQuiet } from './lib/quiet.ts';

type Target = Case['target'] & { ingest?: number };
/** Met: the rate and p99, and for the mixed row the ingest rate during it too. */
const met = (r: LoadResult, t: Target, ingestRate: number) => (r.rps >= t.rps && r.p99 <= t.p99 && (t.ingest === undefined || ingestRate >= t.ingest) ? 'yes' : 'no');
const targetText = (t: Target) => `≥ ${t.rps} req/s, p99 ≤ ${t.p99} ms${t.ingest === undefined ? '' : `, while ingesting ≥ ${t.ingest} txs/s`}`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { txs: { type: 'string', default: '1000000' }, 'skip-baseline': { type: 'boolean', default: false }, 'skip-rebuild': { type: 'boolean', default: false }, seconds: { type: 'string', default: '15' } },
  });
  mkdirSync(OUT, { recursive: true });
  const n = Number(values.txs);
  const m = machine();
  const c = commit();
  const file = await generate(n);
  const [head, tail] = await split(file, 0.9);
  const label = `${n.toLocaleString('en-US')}-tx log, 90%`;

  const ingest: IngestResult[] = [];
  if (!values['skip-baseline']) ingest.push({ ...(await replay(head, `${label}, serving store off`, { env: { STACKS_API_SERVING_STORE: 'off' } })) });
  const stored = await replay(head, `${label}, serving store on`, { keep: true });
  ingest.push(stored);
  const servingMB = dirBytes(join(stored.dataDir, 'serving')) / 1e6;
  const servingStore = openServingStore(join(stored.dataDir, 'serving'), { readOnly: true });
  const perDb = dbSizesText(servingStore);
  await servingStore.close();
  const clickhouseMB = dirBytes(join(stored.dataDir, 'clickhouse')) / 1e6;
  let rebuildS: number | undefined;
  if (!values['skip-rebuild']) {
    const t0 = performance.now();
    const rebuild = await runCli('src/cli/rebuild-serving.ts', [], { STACKS_API_DATA_DIR: stored.dataDir }, { inherit: true });
    if (rebuild.code !== 0) throw new Error(`rebuild failed:\n${rebuild.output}`);
    rebuildS = (performance.now() - t0) / 1000;
  }

  const t = await runCli('bench/query/targets.ts', [], { STACKS_API_DATA_DIR: stored.dataDir });
  const targets = JSON.parse(t.output.trim().split('\n').at(-1)!) as QueryTargets;
  const limits = { requests: 100_000, seconds: Number(values.seconds) };
  const svc = await startBenchService({ dataDir: stored.dataDir, env: { STACKS_API_RESPONSE_CACHE_MB: '0' } });
  const quietS = await waitQuiet(svc.child.pid!);
  const rows: Array<LoadResult & { target: Target }> = [];
  const list = cases(targets);
  for (const cs of list) {
    await closedLoop(svc.apiUrl, cs.name, cs.path, 4, { requests: 500, seconds: 10 });
    for (const clients of [1, 8, 32]) {
      // A different id each request: the offset moves past the ids the warm-up and earlier runs used.
      const base = rows.length * 10_000;
      rows.push({ ...(await closedLoop(svc.apiUrl, cs.name, (i) => cs.path(base + i), clients, limits)), target: cs.target });
      console.log(`${cs.name} @${clients}: ${rows.at(-1)!.rps.toFixed(0)} req/s p99 ${rows.at(-1)!.p99.toFixed(1)} ms`);
    }
  }
  const { mixed, ingestRate } = await mixedWhileIngesting(svc, list, tail, limits);
  rows.push({ ...mixed, target: { rps: 1500, p99: 50, ingest: 3000 } });
  await svc.stop();
  // Issue 35: every read case at 1 and at 2 API threads (the mixed run above ingested the tail, so
  // these read the whole log's store).
  const threadRuns = await runAtThreadCounts(stored.dataDir, readCases(targets), [1, 2], limits, defaultLoadClient());

  const data = `${stored.txs.toLocaleString('en-US')} txs (${label})`;
  const head2 = '| case | clients | requests | req/s | p50 ms | p99 ms | target | met | data | machine | commit |\n|---|---|---|---|---|---|---|---|---|---|---|';
  const table = [
    head2,
    ...rows.map((r) => `| ${r.name} | ${r.clients} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${targetText(r.target)} | ${r.clients === 32 ? met(r, r.target, ingestRate) : ''} | ${data} | ${m} | ${c} |`),
  ].join('\n');
  const body = [
    `\`npm run bench:serving\` (${today()}): response cache off, the default API threads (one per core, at most 4), closed-loop undici clients on loopback, each request a different id; targets apply at 32 clients. The mixed row ran while the log's last 10% was POSTed to the observer, ingesting ${ingestRate.toFixed(0)} txs/s during the run. The read cases began once the service had gone quiet after the import (the engine's merges: ${quietS.toFixed(0)} s).`,
    '',
    table,
    '',
    `Ingest of the stored 90%, with and without the serving store (its writes and the documents the decode workers render):`,
    '',
    ingestTable(ingest, m, c),
    '',
    `Serving store: ${servingMB.toFixed(0)} MB for ${stored.txs.toLocaleString('en-US')} txs (${((servingMB * 1e6) / stored.txs / 1024).toFixed(2)} KiB per tx, ${((servingMB / stored.txs) * 1e6 / 1e3).toFixed(2)} GB per million txs; by database, MiB: ${perDb}); ClickHouse ${clickhouseMB.toFixed(0)} MB. ${rebuildS === undefined ? 'Rebuild not run (--skip-rebuild).' : `Rebuilt from the event log (\`npm run rebuild-serving\`) in ${rebuildS.toFixed(0)} s.`}`,
  ].join('\n');
  console.log(body);
  const results = join(ROOT, 'bench', 'RESULTS.md');
  writeFileSync(results, replaceSection(readFileSync(results, 'utf8'), 'Serving path (issue 12)', body));
  const threads = threadsSection(threadRuns, `${threadRuns[0].txs.toLocaleString('en-US')} canonical txs (${n.toLocaleString('en-US')}-tx log, the 90% stored and the tail fed live)`, `npm run bench:serving${n === 1_000_000 ? '' : ` -- --txs ${n}`}`);
  console.log(threads);
  writeFileSync(results, replaceSection(readFileSync(results, 'utf8'), THREADS_SECTION, threads));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
