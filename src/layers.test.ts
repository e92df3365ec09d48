import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT, tempDataDir } from './testing/service.ts';

const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');

/** The layer check (the command .ci/run runs) in `cwd`. */
function checkLayers(cwd: string): { code: number | null; output: string } {
  const r = spawnSync(DEPCRUISE, ['src', '--config', join(cwd, '.dependency-cruiser.cjs'), '--output-type', 'err'], { cwd, encoding: 'utf8' });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

test('the tree keeps its layers', () => {
  const r = checkLayers(ROOT);
  assert.equal(r.code, 0, r.output);
});

test('the check fails when an import runs upward, and names the rule', () => {
  const dir = tempDataDir('layers-');
  for (const f of ['.dependency-cruiser.cjs', 'tsconfig.json']) copyFileSync(join(ROOT, f), join(dir, f));
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  put('src/http/app.ts', 'export const app = 1;\n');
  put('src/testing/service.ts', 'export const service = 1;\n');
  put('src/stacks/codec.ts', 'export const codec = 1;\n');
  put('src/http/routes.ts', "import { codec } from '../stacks/codec.ts';\nexport const routes = codec;\n");
  put('src/http/routes.test.ts', "import { service } from '../testing/service.ts';\nexport const t = service;\n");
  assert.equal(checkLayers(dir).code, 0, 'downward imports, and a test importing test support, pass');

  put('src/stacks/codec.ts', "import { app } from '../http/app.ts';\nexport const codec = app;\n");
  const upward = checkLayers(dir);
  assert.notEqual(upward.code, 0, upward.output);
  assert.match(upward.output, /stacks-imports-only-lower-layers/);
  assert.match(upward.output, /src\/stacks\/codec\.ts → src\/http\/app\.ts/);

  put('src/stacks/codec.ts', 'export const codec = 1;\n');
  put('src/realtime/hub.ts', 'export const hub = 1;\n');
  put('src/http/routes.ts', "import { hub } from '../realtime/hub.ts';\nexport const routes = hub;\n");
  const above = checkLayers(dir);
  assert.notEqual(above.code, 0, above.output);
  assert.match(above.output, /http-imports-only-lower-layers/);

  put('src/http/routes.ts', "import { service } from '../testing/service.ts';\nexport const routes = service;\n");
  const support = checkLayers(dir);
  assert.notEqual(support.code, 0, support.output);
  assert.match(support.output, /test-support-is-for-tests/);
});
