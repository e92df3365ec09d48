// `npx tsx bench/serving-answers.ts --store <data dir> [--targets <file>] [--n 1000] [--rounds 5]`: the
// CPU of the read cases of `npm run bench:serving`, answered in this process through the route
// handlers (as serving-check answers them: no HTTP, no other process), in µs per answer, min and
// median over the rounds. Run it on two stores with two versions, one after the other and again, to
// compare what a layout costs an answer without the closed loop's run-to-run spread (issue 32).
import { parseArgs } from 'node:util';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { runCli } from './lib/run-cli.ts';
import type { QueryTargets } from './query/targets.ts';
import { readCases } from './lib/serving-cases.ts';
import { loadConfig } from '../src/config/config.ts';
import { openStore } from '../src/storage/client.ts';
import { openServingStore, servingDir } from '../src/serving/store.ts';
import { ServingView } from '../src/serving/view.ts';
import { answer } from '../src/cli/serving-check/answers.ts';
import type { ApiContext } from '../src/http/context.ts';

const { values } = parseArgs({ options: { store: { type: 'string' }, targets: { type: 'string' }, n: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '5' }, cases: { type: 'string' } } });
if (!values.store) throw new Error('--store <data dir> is required');
process.env.STACKS_API_DATA_DIR = values.store;
process.env.STACKS_API_STORE_RESIDENT_MB ??= '0';

let targets: QueryTargets;
if (values.targets && existsSync(values.targets)) targets = JSON.parse(readFileSync(values.targets, 'utf8')) as QueryTargets;
else {
  const t = await runCli('bench/query/targets.ts', [], { STACKS_API_DATA_DIR: values.store });
  targets = JSON.parse(t.output.trim().split('\n').at(-1)!) as QueryTargets;
  if (values.targets) writeFileSync(values.targets, JSON.stringify(targets));
}

const config = loadConfig();
const store = await openStore(config.store, config.dataDir);
const serving = openServingStore(servingDir(config.dataDir), { readOnly: true });
const view = new ServingView(serving).load();
view.followStoredThrough(() => 0);
const ctx: ApiContext = { store, config, serving: { store: serving, view } } as ApiContext;
const filter = values.cases ? new RegExp(values.cases) : undefined;
const list = readCases(targets).filter((c) => !filter || filter.test(c.name));
const n = Number(values.n);
const results = new Map<string, number[]>();
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
for (let round = 0; round < Number(values.rounds); round++) {
  for (const cs of list) {
    // Warm: the same requests once, then measured (their pages are in the page cache both times).
    for (let i = 0; i < Math.min(n, 200); i++) await answer(cs.path(i), ctx);
    const c0 = cpuUs();
    for (let i = 0; i < n; i++) {
      const a = await answer(cs.path(i), ctx, { parse: false });
      if (a.status !== 200) throw new Error(`${cs.path(i)}: ${a.status} ${JSON.stringify(a.body).slice(0, 200)}`);
    }
    const l = results.get(cs.name) ?? [];
    l.push((cpuUs() - c0) / n);
    results.set(cs.name, l);
  }
}
console.log('| case | µs per answer, min | median |\n|---|---|---|');
for (const [name, l] of results) {
  l.sort((a, b) => a - b);
  console.log(`| ${name} | ${l[0].toFixed(1)} | ${l[l.length >> 1].toFixed(1)} |`);
}
await serving.close();
await store.client.close();
