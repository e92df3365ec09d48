// `npx tsx bench/query/on-store.ts --store DIR [--cases REGEX] [--title T]`: some query cases at 1, 8
// and 32 closed-loop clients, response cache off, against a service started on an existing data
// directory (e.g. the 1M-tx store `npm run bench:serving` leaves behind). Writes section T.
import { parseArgs } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { runCli, ROOT } from '../lib/run-cli.ts';
import { machine, commit, today } from '../lib/env.ts';
import { runQuerySuite } from './suite.ts';
import { loadTable } from './load.ts';
import type { QueryTargets } from './targets.ts';
import { startBenchService } from '../lib/service.ts';
import { replaceSection } from '../lib/results.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { store: { type: 'string' }, cases: { type: 'string' }, title: { type: 'string', default: 'Queries on a stored chain' }, seconds: { type: 'string', default: '15' } } });
  if (!values.store) throw new Error('--store DIR is required');
  const t = await runCli('bench/query/targets.ts', [], { STACKS_API_DATA_DIR: values.store });
  const targets = JSON.parse(t.output.trim().split('\n').at(-1)!) as QueryTargets;
  const loadBefore = loadavg()[0];
  const svc = await startBenchService({ dataDir: values.store, env: { STACKS_API_RESPONSE_CACHE_MB: '0' } });
  const status = (await (await fetch(`${svc.apiUrl}/extended/v1/tx?limit=1`)).json()) as { total: number };
  const rows = await runQuerySuite(svc.apiUrl, targets, [1, 8, 32], { requests: 100_000, seconds: Number(values.seconds) }, values.cases ? new RegExp(values.cases) : undefined);
  await svc.stop();
  const table = loadTable(rows, `${status.total.toLocaleString('en-US')} canonical txs`, machine(), commit());
  console.log(table);
  const body = `\`npx tsx bench/query/on-store.ts --store <dir>${values.cases ? ` --cases '${values.cases}'` : ''}\` (${today()}): response cache off, closed-loop undici clients on loopback, each case bounded by 100,000 requests or ${values.seconds} s. The machine's 1-minute load average was ${loadBefore.toFixed(1)} at the start and ${loadavg()[0].toFixed(1)} at the end (2 cores: above ~2, other work shared them and the numbers are lower bounds).\n\n${table}`;
  const results = join(ROOT, 'bench', 'RESULTS.md');
  writeFileSync(results, replaceSection(readFileSync(results, 'utf8'), values.title, body));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
