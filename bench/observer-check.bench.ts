// The observer's check of a body before the ack (tinybench): the whole check (decodeEvent on the
// observer thread: parse, schema with ranges and depth bounds, decode) and its parts, on real bodies
// of several sizes, so a change to the check can be weighed against the ack it delays.
import { Bench } from 'tinybench';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { decodeEvent } from '../src/workers/decode-event.ts';
import { parsePayload } from '../src/workers/validate-payload.ts';
import { SHARED } from '../src/testing/service.ts';

const dir = join(SHARED, 'fixtures', 'new_block-json');
const bodies = readdirSync(dir)
  .map((f) => readFileSync(join(dir, f)))
  .sort((a, b) => a.length - b.length);
const picks = [bodies[0], bodies[bodies.length - 1]];

const bench = new Bench({ time: 1000 });
for (const body of picks) {
  const text = body.toString('utf8');
  const kb = `${(body.length / 1024).toFixed(0)} KiB /new_block`;
  bench
    .add(`${kb}: whole check (decodeEvent)`, () => {
      decodeEvent({ path: '/new_block', body });
    })
    .add(`${kb}: JSON.parse`, () => {
      JSON.parse(text);
    })
    .add(`${kb}: JSON.parse + schema`, () => {
      parsePayload('/new_block', text);
    });
}
await bench.run();
console.log('| task | ops/s | mean µs | p99 µs |\n|---|---|---|---|');
for (const t of bench.tasks) {
  const r = t.result as { latency?: { mean: number; p99?: number } } | undefined;
  console.log(`| ${t.name} | ${Math.round(1000 / (r?.latency?.mean ?? NaN)).toLocaleString('en-US')} | ${((r?.latency?.mean ?? NaN) * 1000).toFixed(1)} | ${((r?.latency?.p99 ?? NaN) * 1000).toFixed(1)} |`);
}
