// `npx tsx bench/ingest/fsync-probe.ts [--dir D] [--rate 100] [--seconds 20]`: what one durable
// append costs on this disk, the floor of the node's ack. Writes a 1.5 KB record and fdatasync
// `rate` times a second, alternately appending to a growing file (as the event log does) and
// overwriting a file written with zeros beforehand (no metadata change, so no journal commit), and
// prints p50 / p99 / max of each. Run it alone, then beside an import, to see what the store's
// writes do to the flush.
import { fdatasyncSync, mkdirSync, openSync, closeSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { percentile } from '../lib/env.ts';

const { values } = parseArgs({ options: { dir: { type: 'string', default: 'bench/out/fsync-probe' }, rate: { type: 'string', default: '100' }, seconds: { type: 'string', default: '20' } } });
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const dir = values.dir!;
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const record = Buffer.alloc(1500, 7);
const appended = openSync(join(dir, 'append.log'), 'a');
const overwritten = openSync(join(dir, 'zeroed.log'), 'w+');
const zeros = Buffer.alloc(1 << 20);
for (let at = 0; at < rate * seconds * record.length; at += zeros.length) writeSync(overwritten, zeros, 0, zeros.length, at);
fdatasyncSync(overwritten);

const times = { append: [] as number[], overwrite: [] as number[] };
let offset = 0;
const end = performance.now() + seconds * 1000;
for (let i = 0; performance.now() < end; i++) {
  const t0 = performance.now();
  if (i % 2 === 0) {
    writeSync(appended, record);
    fdatasyncSync(appended);
    times.append.push(performance.now() - t0);
  } else {
    writeSync(overwritten, record, 0, record.length, offset);
    offset += record.length;
    fdatasyncSync(overwritten);
    times.overwrite.push(performance.now() - t0);
  }
  const wait = 1000 / rate - (performance.now() - t0);
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}
closeSync(appended);
closeSync(overwritten);
rmSync(dir, { recursive: true, force: true });
for (const [name, list] of Object.entries(times)) {
  list.sort((a, b) => a - b);
  console.log(`${name.padEnd(9)} n ${list.length}  p50 ${percentile(list, 50).toFixed(2)} ms  p99 ${percentile(list, 99).toFixed(2)} ms  max ${list.at(-1)!.toFixed(1)} ms`);
}
