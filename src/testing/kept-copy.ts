// Test helper: a data directory built once per test run (npm test sets STACKS_TEST_FIXTURE_CACHE to
// a directory it removes afterwards) and handed to each caller as a copy of its own. Test files run
// two at a time, so the build is claimed with an atomic mkdir and the others wait for it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Directories made by tempDataDir, removed when the (test) process exits. */
const madeDirs: string[] = [];
process.once('exit', () => {
  for (const d of madeDirs) rmSync(d, { recursive: true, force: true });
});

export function tempDataDir(prefix = 'stacks-api-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeDirs.push(dir);
  return dir;
}

/** Copies a data directory. ClickHouse's table links are relative and must stay so, or the copy
 *  would write into the original; the serving store's file is sparse (1 TiB long, see
 *  src/serving/store.ts), and only a copy that skips holes stays its size. */
export function copyDataDir(from: string, to: string): void {
  execFileSync('cp', ['-R', '--no-dereference', '--preserve=mode,timestamps,links', '--sparse=always', `${from}/.`, to]);
}

/** Where kept directories live for this run; undefined outside `npm test` (nothing is kept). */
export const keptRoot = (): string | undefined => process.env.STACKS_TEST_FIXTURE_CACHE || undefined;

/**
 * A fresh temporary directory holding a copy of what `build` made in an empty one, built at most
 * once per run under `name` in `root` (see keptRoot).
 */
export async function keptCopy(root: string, name: string, build: (dir: string) => Promise<void>): Promise<string> {
  const own = tempDataDir();
  const kept = join(root, name);
  const done = `${kept}.done`;
  let claimed = false;
  try {
    mkdirSync(kept);
    claimed = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  if (claimed) {
    await build(own);
    copyDataDir(own, kept);
    writeFileSync(done, '');
    return own;
  }
  const until = Date.now() + 15 * 60_000;
  while (!existsSync(done)) {
    if (Date.now() > until) throw new Error(`the kept data directory ${name} was not built`);
    await new Promise((r) => setTimeout(r, 250));
  }
  copyDataDir(kept, own);
  return own;
}
