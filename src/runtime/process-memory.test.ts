// The addon's glibc calls: the heap's free pages go back to the kernel on trimMalloc (not only those
// at a heap's top, which glibc gives back by itself), and the arena cap is accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

/** Run in a child with --expose-gc: frees 64 MB of 32 KB blocks (each its own malloc, below glibc's
 *  mmap threshold), with one block still held after them so that glibc cannot give them back by
 *  trimming its heap's top, then prints RssAnon before and after trimMalloc. */
const CHILD = `
import { trimMalloc } from './src/runtime/process-memory.ts';
import { readFileSync } from 'node:fs';
const anonKb = () => Number(/RssAnon:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
let blocks = Array.from({ length: 2048 }, () => Buffer.allocUnsafeSlow(32 * 1024).fill(1));
const tail = Buffer.allocUnsafeSlow(32 * 1024).fill(2);
blocks = null;
for (let i = 0; i < 4; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 20)); }
const before = anonKb();
const trimmed = trimMalloc();
console.log(JSON.stringify({ before, after: anonKb(), trimmed, tail: tail[0] }));
`;

test('trimMalloc gives the free pages inside the heap back to the kernel', () => {
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', CHILD], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  const { before, after, trimmed } = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { before: number; after: number; trimmed: boolean };
  assert.equal(trimmed, true, 'malloc_trim gave nothing back: is the addon built?');
  assert.ok(before - after > 32 * 1024, `RssAnon ${before} -> ${after} kB: under half of the 64 MB freed came back`);
});

test('limitMallocArenas is applied where the environment does not set MALLOC_ARENA_MAX', () => {
  const run = (env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "import { limitMallocArenas } from './src/runtime/process-memory.ts'; console.log(limitMallocArenas(2));"], { encoding: 'utf8', env });
  const { MALLOC_ARENA_MAX: _, ...env } = process.env;
  assert.equal(run(env).stdout.trim(), 'true');
  assert.equal(run({ ...env, MALLOC_ARENA_MAX: '4' }).stdout.trim(), 'false', "the environment's value is kept");
});
