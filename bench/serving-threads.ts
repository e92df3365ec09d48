// `npx tsx bench/serving-threads.ts --store <dir> [--threads 1,2] [--seconds 15] [--cases REGEX] [--client wrk|undici] [--repeats N] [--write]`:
// the read cases of `npm run bench:serving` at each API thread count (STACKS_API_THREADS) on an
// existing data directory, 32 clients, response cache off, with each rate's ratio to the reference
// API's (issue 35). `--write` puts the table into bench/RESULTS.md ("API threads (issue 35)");
// `npm run bench:serving` runs the same on its store and writes it too.
import { parseArgs } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, ROOT } from './lib/run-cli.ts';
import { machine, commit, today } from './lib/env.ts';
import type { QueryTargets } from './query/targets.ts';
import { readCases } from './lib/serving-cases.ts';
import { defaultLoadClient, loadNote, runAtThreadCounts, threadsTable, type LoadClient, type ThreadRun } from './lib/serving-threads.ts';
import { replaceSection } from './lib/results.ts';

export const THREADS_SECTION = 'API threads (issue 35)';

export function threadsSection(runs: ThreadRun[], data: string, command: string): string {
  return [
    `\`${command}\` (${today()}): the read cases at each API thread count (\`STACKS_API_THREADS\`), one service each on the same store, response cache off, 32 closed-loop connections on loopback (their connections spread over the threads by the kernel) from ${runs[0].client === 'wrk' ? 'wrk (one C thread: the load generator shares the 2 cores, and undici\'s ~50 µs a request would cap the cheap reads)' : 'undici'}, each request a different id where the case has ids; the ratio is to the reference API's req/s on the side-by-side 100k-tx chain (issue 35: measured on a 2-core machine; machines differ by up to 2×). Data: ${data}. Machine: ${machine()}. Commit: ${commit()}. ${loadNote(runs)} (2 cores: a load average above ~2 means other work shared them, and the rates are lower bounds).`,
    '',
    threadsTable(runs),
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { store: { type: 'string' }, threads: { type: 'string', default: '1,2' }, seconds: { type: 'string', default: '15' }, cases: { type: 'string' }, client: { type: 'string' }, repeats: { type: 'string', default: '1' }, write: { type: 'boolean', default: false } } });
  if (!values.store) throw new Error('--store DIR is required');
  const t = await runCli('bench/query/targets.ts', [], { STACKS_API_DATA_DIR: values.store });
  if (t.code !== 0) throw new Error(`reading the store's targets failed:\n${t.output}`);
  const targets = JSON.parse(t.output.trim().split('\n').at(-1)!) as QueryTargets;
  const pattern = values.cases ? new RegExp(values.cases) : undefined;
  const list = readCases(targets).filter((c) => !pattern || pattern.test(c.name));
  const threads = values.threads.split(',').map(Number);
  const client: LoadClient = values.client === 'undici' || values.client === 'wrk' ? values.client : defaultLoadClient();
  const runs = await runAtThreadCounts(values.store, list, threads, { requests: 100_000, seconds: Number(values.seconds), repeats: Number(values.repeats) }, client);
  const body = threadsSection(runs, `${runs[0].txs.toLocaleString('en-US')} canonical txs (${values.store})`, `npx tsx bench/serving-threads.ts --store <dir> --threads ${values.threads} --seconds ${values.seconds}${values.repeats !== '1' ? ` --repeats ${values.repeats}` : ''}`);
  console.log(body);
  if (values.write) {
    const results = join(ROOT, 'bench', 'RESULTS.md');
    writeFileSync(results, replaceSection(readFileSync(results, 'utf8'), THREADS_SECTION, body));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
