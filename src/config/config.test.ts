import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig, ConfigError } from './config.ts';
import { ROOT, tempDataDir } from '../testing/service.ts';

test('defaults follow the reference API', () => {
  const c = loadConfig({});
  assert.equal(c.eventHost, '127.0.0.1');
  assert.equal(c.eventPort, 3700);
  assert.equal(c.apiHost, '0.0.0.0');
  assert.equal(c.apiPort, 3999);
  assert.equal(c.dataDir, './data');
  assert.equal(c.chainId, 1);
  assert.equal(c.isMainnet, true);
  assert.equal(c.mode, 'default');
  assert.equal(c.store.url, undefined);
  assert.equal(loadConfig({ STACKS_CHAIN_ID: '0x80000000' }).isMainnet, false);
  assert.equal(loadConfig({ STACKS_API_MODE: 'readonly' }).mode, 'readonly');
});

test('a bad value names its variable', () => {
  const bad: Array<[Record<string, string>, string]> = [
    [{ STACKS_CORE_EVENT_PORT: 'abc' }, 'STACKS_CORE_EVENT_PORT'],
    [{ STACKS_BLOCKCHAIN_API_PORT: '70000' }, 'STACKS_BLOCKCHAIN_API_PORT'],
    [{ STACKS_CHAIN_ID: 'mainnet' }, 'STACKS_CHAIN_ID'],
    [{ STACKS_API_MODE: 'both' }, 'STACKS_API_MODE'],
    [{ CLICKHOUSE_URL: 'localhost:8123' }, 'CLICKHOUSE_URL'],
    [{ CLICKHOUSE_DATABASE: 'a-b' }, 'CLICKHOUSE_DATABASE'],
    [{ CLICKHOUSE_CLUSTER: 'c1' }, 'CLICKHOUSE_CLUSTER'],
    [{ STACKS_CORE_EVENT_BODY_LIMIT: '0' }, 'STACKS_CORE_EVENT_BODY_LIMIT'],
  ];
  for (const [env, name] of bad) {
    assert.throws(() => loadConfig(env), (e: unknown) => e instanceof ConfigError && e.variable === name && e.message.startsWith(`${name}:`), name);
  }
});

test('start-up with a bad setting stops with one line naming the variable', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, STACKS_API_DATA_DIR: tempDataDir(), STACKS_API_MODE: 'sideways' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.status, 2);
  const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('npm warn'));
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /^configuration error: STACKS_API_MODE: /);
});
