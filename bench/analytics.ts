// `npx tsx bench/analytics.ts [--txs 1000000] [--seconds 15] [--skip-baseline] [--store DIR]`: the analytics
// endpoints (issue 18) on a generated store at 1 and 8 closed-loop clients with the response cache
// off (target: p99 ≤ 100 ms at 8 clients), and the ingest cost of the aggregates: the same log
// imported with and without them (STACKS_API_ANALYTICS_INGEST=0; target ≥ 5,000 txs/s with them).
// Both imports keep no serving store unless --serving: analytics reads ClickHouse only, and the
// store's own cost is the serving bench's (bench/serving.ts). Writes "Analytics (issue 18)" into
// bench/RESULTS.md.
import { parseArgs } from 'node:util';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, ROOT } from './lib/run-cli.ts';
import { generate, OUT } from './lib/chains.ts';
import { machine, commit, today } from './lib/env.ts';
import { replay, ingestTable, type IngestResult } from './ingest/replay.ts';
import { closedLoop, type LoadResult } from './query/load.ts';
import type { QueryTargets } from './query/targets.ts';
import { startBenchService } from './lib/service.ts';
import { replaceSection } from './lib/results.ts';

const A = '/extended/analytics/v1';

function cases(t: QueryTargets, contracts: string[]): Array<{ name: string; path: (i: number) => string }> {
  const at = <T>(list: T[], i: number) => list[i % list.length];
  const enc = encodeURIComponent;
  const token = enc(t.busiestToken);
  return [
    { name: 'chain series, txs by day', path: () => `${A}/chain/series?metric=txs&interval=day` },
    { name: 'chain series, active senders by day', path: () => `${A}/chain/series?metric=active_senders&interval=day` },
    { name: 'chain series, fees by hour', path: () => `${A}/chain/series?metric=fees&interval=hour` },
    { name: 'chain series, blocks by cycle', path: () => `${A}/chain/series?metric=blocks&interval=cycle` },
    { name: 'top contracts by calls', path: () => `${A}/contracts/top?by=calls&limit=20` },
    { name: 'top contracts by unique callers', path: () => `${A}/contracts/top?by=unique_callers&limit=20` },
    { name: 'contract calls by day', path: (i) => `${A}/contracts/${enc(at(contracts, i))}/series?metric=calls` },
    { name: 'contract callers by day', path: (i) => `${A}/contracts/${enc(at(contracts, i))}/series?metric=callers` },
    { name: 'contract functions', path: (i) => `${A}/contracts/${enc(at(contracts, i))}/functions` },
    { name: 'top tokens by transfers', path: () => `${A}/tokens/ft/top?by=transfers` },
    { name: 'FT transfers by day (busiest token)', path: () => `${A}/tokens/ft/${token}/series?metric=transfers` },
    { name: 'FT holders by day (busiest token)', path: () => `${A}/tokens/ft/${token}/series?metric=holders` },
    { name: 'FT distribution (busiest token)', path: () => `${A}/tokens/ft/${token}/distribution` },
    { name: 'principal STX flows', path: (i) => `${A}/principals/${at(t.principals, i)}/flows?asset=stx` },
    { name: 'principal series by day', path: (i) => `${A}/principals/${at(t.principals, i)}/series` },
    { name: `heaviest principal series (${t.heavyCount} txs)`, path: () => `${A}/principals/${t.heavyPrincipal}/series` },
    { name: 'PoX cycles', path: () => `${A}/pox/cycles` },
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { txs: { type: 'string', default: '1000000' }, seconds: { type: 'string', default: '15' }, 'skip-baseline': { type: 'boolean', default: false }, serving: { type: 'boolean', default: false }, store: { type: 'string' }, cases: { type: 'string' } },
  });
  // --cases REGEX: only the matching cases, printed and not written to RESULTS.md (a partial table).
  const only = values.cases ? new RegExp(values.cases) : undefined;
  const store = { STACKS_API_SERVING_STORE: values.serving ? 'on' : 'off' };
  mkdirSync(OUT, { recursive: true });
  const n = Number(values.txs);
  const [m, c] = [machine(), commit()];
  const file = await generate(n);
  const label = `${n.toLocaleString('en-US')}-tx log`;
  // --store DIR: the store is imported there once and kept; a later run with the same DIR queries it
  // again without importing (and reports the ingest rows of the run that imported it).
  const kept = values.store && join(values.store, 'bench-ingest.json');
  let ingest: IngestResult[] = [];
  if (kept && existsSync(kept)) ingest = JSON.parse(readFileSync(kept, 'utf8')) as IngestResult[];
  else {
    if (!values['skip-baseline']) ingest.push(await replay(file, `${label}, analytics aggregates off`, { env: { ...store, STACKS_API_ANALYTICS_INGEST: '0' } }));
    if (values.store) mkdirSync(values.store, { recursive: true });
    ingest.push(await replay(file, `${label}, analytics aggregates on`, { keep: true, dataDir: values.store, env: store }));
    if (kept) writeFileSync(kept, JSON.stringify(ingest));
  }
  const stored = ingest.at(-1)!;

  const t = JSON.parse((await runCli('bench/query/targets.ts', [], { STACKS_API_DATA_DIR: stored.dataDir })).output.trim().split('\n').at(-1)!) as QueryTargets;
  const svc = await startBenchService({ dataDir: stored.dataDir, env: { ...store, STACKS_API_RESPONSE_CACHE_MB: '0' } });
  const rows: LoadResult[] = [];
  try {
    const top = (await (await fetch(`${svc.apiUrl}${A}/contracts/top?by=calls&limit=50`)).json()) as { results: Array<{ contract_id: string }> };
    const contracts = top.results.map((r) => r.contract_id);
    if (contracts.length === 0) contracts.push(t.busiestContract);
    const limits = { requests: 20_000, seconds: Number(values.seconds) };
    for (const cs of cases(t, contracts).filter((x) => !only || only.test(x.name))) {
      await closedLoop(svc.apiUrl, cs.name, cs.path, 4, { requests: 50, seconds: 10 });
      for (const clients of [1, 8]) {
        rows.push(await closedLoop(svc.apiUrl, cs.name, cs.path, clients, limits));
        console.log(`${cs.name} @${clients}: ${rows.at(-1)!.rps.toFixed(0)} req/s p99 ${rows.at(-1)!.p99.toFixed(1)} ms`);
      }
    }
  } finally {
    await svc.stop();
    if (!values.store) rmSync(stored.dataDir, { recursive: true, force: true });
  }
  const data = `${stored.txs.toLocaleString('en-US')} txs`;
  const table = [
    '| case | clients | requests | errors | req/s | p50 ms | p99 ms | p99 ≤ 100 ms at 8 | data | machine | commit |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.clients} | ${r.requests} | ${r.errors} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.clients === 8 ? (r.p99 <= 100 ? 'yes' : 'no') : ''} | ${data} | ${m} | ${c} |`),
  ].join('\n');
  const body = [
    `\`npx tsx bench/analytics.ts --txs ${n}\` (${today()}): response cache off, closed-loop clients on loopback.`,
    '',
    table,
    '',
    `Ingest with and without the analytics aggregates (their per-block rows, the signed bucket rows and the materialized view), serving store ${store.STACKS_API_SERVING_STORE}:`,
    '',
    ingestTable(ingest, m, c),
  ].join('\n');
  console.log(body);
  if (only) return;
  const results = join(ROOT, 'bench', 'RESULTS.md');
  writeFileSync(results, replaceSection(readFileSync(results, 'utf8'), 'Analytics (issue 18)', body));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
