// Which entry the tests' service, and each command they run, runs: the compiled build (build/, as
// `npm start` runs it) when `npm run build` made it after the last change to what it compiles, else
// the TypeScript source under tsx. A start from the source costs about twice the CPU (tsx's loader
// in every thread), and the suite starts the service some 150 times; `npm test` builds first. A
// single test run after an edit, without a build, still runs the code as it is now.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT as ROOT } from '../config/shared-dir.ts';

/** Written by `npm run build` when tsc has emitted build/. */
const BUILD_STAMP = join(ROOT, 'build', '.built');

const COMPILED = /\.(ts|mjs)$/;
const NOT_COMPILED = /\.test\.ts$|\.goldens\.ts$/;

/** Newest modification time (ms) of the files the build compiles, and of its settings. */
function newestSourceChange(): number {
  let newest = Math.max(statSync(join(ROOT, 'tsconfig.json')).mtimeMs, statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path !== join(ROOT, 'src', 'testing')) walk(path);
      } else if (COMPILED.test(entry.name) && !NOT_COMPILED.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  walk(join(ROOT, 'src'));
  return newest;
}

let current: boolean | undefined;

/** True when build/ was made after the last change to its sources (checked once per process). */
export function buildIsCurrent(): boolean {
  if (current === undefined) {
    try {
      current = statSync(BUILD_STAMP).mtimeMs >= newestSourceChange();
    } catch {
      current = false; // never built
    }
  }
  return current;
}

/** The node arguments that run a script of src/ (a path from the project's root): its compiled
 *  .js in build/ when the build is current, else the source under tsx. */
export function scriptEntryArgs(script: string): string[] {
  const module = /^src\/(.*)\.ts$/.exec(script);
  const compiled = module && join(ROOT, 'build', `${module[1]}.js`);
  return compiled && buildIsCurrent() && existsSync(compiled) ? [compiled] : ['--import', 'tsx', join(ROOT, script)];
}

/** The node arguments that run the service's entry. */
export const serviceEntryArgs = (): string[] => scriptEntryArgs('src/main.ts');
