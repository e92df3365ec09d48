// `npx tsx bench/service-start.ts [--runs 5] [--node-arg <flag>]`: what one start of the service
// costs, as the test suite starts it (src/testing/service.ts, response checks on) on an empty data
// directory: the wall time until it listens, and the CPU every thread used by then. The suite starts
// the service about a hundred and fifty times on two cores, so this is a large share of CI's time.
import { parseArgs } from 'node:util';
import { startService } from '../src/testing/service.ts';
import { threadCpu } from './lib/cpu-profile.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, 'node-arg': { type: 'string', multiple: true } } });
const runs = Number(values.runs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const walls: number[] = [];
const totals: number[] = [];
const byName = new Map<string, number[]>();
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  const svc = await startService({ nodeArgs: values['node-arg'] ?? [] });
  walls.push(performance.now() - started);
  const cpu = threadCpu(svc.child.pid!);
  totals.push(cpu.total);
  for (const [name, s] of cpu.byName) byName.set(name, [...(byName.get(name) ?? []), s]);
  await svc.stop();
  console.error(`start ${i + 1}/${runs}: ${walls[i].toFixed(0)} ms, ${cpu.total.toFixed(2)} CPU-s`);
}
console.log(`service start, median of ${runs}: ${median(walls).toFixed(0)} ms until it listens, ${median(totals).toFixed(2)} CPU-s in all`);
console.log('| thread | CPU-s (median) |\n|---|---|');
for (const [name, xs] of [...byName].sort((a, b) => median(b[1]) - median(a[1]))) {
  if (xs.length === runs && median(xs) >= 0.05) console.log(`| ${name} | ${median(xs).toFixed(2)} |`);
}
process.exit(0);
