// `npm run bench` (quick, a few minutes) and `npm run bench:full`: generates synthetic chains,
// replays them into fresh embedded stores, measures live ingest, the query suite and the micro
// benchmarks, and writes the tables into bench/RESULTS.md (sections replaced, others kept).
import { parseArgs } from 'node:util';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, ROOT } from './lib/run-cli.ts';
import { machine, commit, today } from './lib/env.ts';
import { replay, ingestTable, type IngestResult } from './ingest/replay.ts';
import { live, liveTable } from './ingest/live.ts';
import { runQuerySuite, runMixed } from './query/suite.ts';
import { loadTable, type LoadResult } from './query/load.ts';
import type { QueryTargets } from './query/targets.ts';
import { waitForProcessing } from '../src/testing/service.ts';
import { startBenchService } from './lib/service.ts';
import { generate, split, OUT } from './lib/chains.ts';
import { replaceSection } from './lib/results.ts';

const PROFILES = {
  quick: { sizes: [10_000, 100_000], liveRequests: 2_000, liveRate: 100, concurrency: [1, 8, 32], queryRequests: 2_000, querySeconds: 5 },
  full: { sizes: [10_000, 100_000, 1_000_000], liveRequests: 20_000, liveRate: 200, concurrency: [1, 8, 32], queryRequests: 20_000, querySeconds: 15 },
};

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { profile: { type: 'string', default: 'quick' }, only: { type: 'string' } } });
  const profile = PROFILES[values.profile as keyof typeof PROFILES];
  if (!profile) throw new Error(`unknown profile ${values.profile}`);
  const only = new Set((values.only ?? 'ingest,live,query,micro').split(','));
  mkdirSync(OUT, { recursive: true });
  const m = machine();
  const c = commit();
  const results = join(ROOT, 'bench', 'RESULTS.md');
  const save = (title: string, body: string) => writeFileSync(results, replaceSection(readFileSync(results, 'utf8'), title, body));

  const largest = profile.sizes.at(-1)!;
  if (only.has('ingest')) {
    const rows: IngestResult[] = [];
    for (const n of profile.sizes) {
      const file = await generate(n);
      rows.push(await replay(file, `${n.toLocaleString('en-US')} txs`));
      console.log(ingestTable(rows.slice(-1), m, c));
    }
    save(`Ingest (${values.profile})`, `Replay of a generated log into a fresh embedded store with \`import-events\` (\`npm run bench${values.profile === 'full' ? ':full' : ''}\`, ${today()}). Wall time from the first append to the last stored batch; stage times are the processor's (decode wait = waiting for the pool, apply = chain state on the main thread, insert = ClickHouse inserts).\n\n${ingestTable(rows, m, c)}`);
  }
  if (only.has('live')) {
    const file = await generate(profile.sizes[0]);
    const r = await live(file, `${profile.sizes[0].toLocaleString('en-US')}-tx log`, profile.liveRate, profile.liveRequests);
    console.log(liveTable([r], m, c));
    save(`Live ingest (${values.profile})`, `Requests POSTed one at a time at a fixed rate to a running service; ack = the node's wait for our 200; "processed after" = from POST to the entry's rows being stored (${today()}).\n\n${liveTable([r], m, c)}`);
  }
  if (only.has('query')) {
    const file = await generate(largest);
    const [head, tail] = await split(file, 0.9);
    const stored = await replay(head, 'query store', { keep: true });
    const t = await runCli('bench/query/targets.ts', [], { STACKS_API_DATA_DIR: stored.dataDir });
    const targets = JSON.parse(t.output.trim().split('\n').at(-1)!) as QueryTargets;
    const limits = { requests: profile.queryRequests, seconds: profile.querySeconds };
    // First without the response cache (every request runs its queries), then as deployed.
    const uncached = await startBenchService({ dataDir: stored.dataDir, env: { STACKS_API_RESPONSE_CACHE_MB: '0' } });
    const rows: LoadResult[] = (await runQuerySuite(uncached.apiUrl, targets, profile.concurrency, limits)).map((r) => ({ ...r, name: `${r.name} (no cache)` }));
    await uncached.stop();
    const svc = await startBenchService({ dataDir: stored.dataDir });
    rows.push(...(await runQuerySuite(svc.apiUrl, targets, profile.concurrency, limits)));
    // The mixed run, while the held-back tail of the log is ingested live.
    const feeding = runCli('bench/lib/feed.ts', [tail, svc.eventUrl]);
    rows.push(await runMixed(svc.apiUrl, targets, 32, limits));
    await feeding;
    await waitForProcessing(svc.apiUrl, 600_000);
    await svc.stop();
    const label = `${stored.txs.toLocaleString('en-US')} txs (${largest.toLocaleString('en-US')}-tx log, 90%)`;
    console.log(loadTable(rows, label, m, c));
    save(`Queries (${values.profile})`, `Closed-loop undici clients on loopback against \`npm start\` on the stored log; each case bounded by ${limits.requests} requests or ${limits.seconds} s. Rows marked "(no cache)" ran with \`STACKS_API_RESPONSE_CACHE_MB=0\` (every request runs its queries); the others with the default response cache, where repeated URLs between two stored batches are answered from memory (a mined canonical tx's answer until a reorg: the \"asked before\" row). The last row runs all cases interleaved while the log's last 10% is POSTed to the observer (${today()}).\n\n${loadTable(rows, label, m, c)}`);
  }
  if (only.has('micro')) {
    const r = await runCli('bench/decode.bench.ts', [], {});
    const r2 = await runCli('bench/rows.bench.ts', [], {});
    const r3 = await runCli('bench/observer-check.bench.ts', [], {});
    save(`Micro benchmarks (${values.profile})`, `\`npx tsx bench/decode.bench.ts\`, \`npx tsx bench/rows.bench.ts\` and \`npx tsx bench/observer-check.bench.ts\` (tinybench), ${today()}, ${m}, commit ${c}.\n\n${r.output.trim()}\n\n${r2.output.trim()}\n\n${r3.output.trim()}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
