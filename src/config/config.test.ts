import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { loadConfig, ConfigError } from './config.ts';
import { loadStartupConfig } from '../cli/startup.ts';
import { readDecodeThreads } from './tuning.ts';
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
  // One API thread per core, at most 4.
  assert.equal(c.apiThreads, Math.max(1, Math.min(4, availableParallelism())));
  assert.equal(loadConfig({ STACKS_API_THREADS: '3' }).apiThreads, 3);
  // Decode threads: one fewer than the cores (the processor's thread is the other), 1 to 4.
  assert.equal(readDecodeThreads({}), Math.max(1, Math.min(4, availableParallelism() - 1)));
  assert.equal(readDecodeThreads({ STACKS_API_DECODE_THREADS: '3' }), 3);
});

/** Each bad value (variable, value) makes `load` throw a ConfigError naming that variable. */
function assertEachNamed(load: (env: Record<string, string>) => unknown, bad: Array<[string, string]>): void {
  for (const [name, value] of bad) {
    assert.throws(() => load({ [name]: value }), (e: unknown) => e instanceof ConfigError && e.variable === name && e.message.startsWith(`${name}:`), name);
  }
}

test('a bad value names its variable', () => {
  assertEachNamed(loadConfig, [
    ['STACKS_CORE_EVENT_PORT', 'abc'],
    ['STACKS_BLOCKCHAIN_API_PORT', '70000'],
    ['STACKS_CHAIN_ID', 'mainnet'],
    ['STACKS_API_MODE', 'both'],
    ['CLICKHOUSE_URL', 'localhost:8123'],
    ['CLICKHOUSE_DATABASE', 'a-b'],
    ['CLICKHOUSE_CLUSTER', 'c1'],
    ['STACKS_CORE_EVENT_BODY_LIMIT', '0'],
    ['STACKS_API_THREADS', '0'],
    ['STACKS_API_THREADS', '65'],
    ['STACKS_API_THREADS', 'two'],
  ]);
});

test('every variable is checked at start-up, including those read by the pool, the cache, the query log and the proxy', () => {
  assertEachNamed(loadStartupConfig, [
    ['STACKS_API_RESPONSE_CACHE_MB', '-5'],
    ['STACKS_API_RESPONSE_CACHE_MB', '1e3'],
    ['STACKS_API_DECODE_THREADS', 'abc'],
    ['STACKS_API_DECODE_THREADS', '0'],
    ['STACKS_API_TRACE_QUERIES', 'yes'],
    ['STACKS_API_VALIDATE_RESPONSES', 'true'],
    ['STACKS_CORE_PROXY_TIMEOUT_MS', '-1'],
    ['STACKS_API_MEMPOOL_CLEANUP_MS', 'soon'],
    ['STACKS_API_LIVE_BATCH_MS', '-1'],
    ['STACKS_API_STORE_RESIDENT_MB', 'lots'],
    ['STACKS_API_PROGRESS_MS', '0'],
    ['STACKS_API_STORE_MIN_FREE_MB', 'some'],
  ]);
  const good = loadStartupConfig({ STACKS_API_RESPONSE_CACHE_MB: '0', STACKS_API_DECODE_THREADS: '2', STACKS_API_TRACE_QUERIES: '1', STACKS_API_STORE_RESIDENT_MB: '0' });
  assert.deepEqual([good.tuning.responseCacheMb, good.tuning.decodeThreads, good.tuning.traceQueries, good.tuning.storeResidentMb], [0, 2, true, 0]);
});

test('start-up with a bad setting stops with one line naming the variable', () => {
  for (const [name, value] of [['STACKS_API_MODE', 'sideways'], ['STACKS_API_RESPONSE_CACHE_MB', '-5'], ['STACKS_API_DECODE_THREADS', 'many']]) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main.ts')], {
      cwd: ROOT,
      env: { ...process.env, STACKS_API_DATA_DIR: tempDataDir(), [name]: value },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 2, `${name}: ${r.stderr}`);
    const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('npm warn'));
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], new RegExp(`^configuration error: ${name}: `));
  }
});

test('the analytics SQL endpoint is off by default and on with a token and its limits', () => {
  assert.equal(loadConfig({}).analyticsSql, undefined);
  assert.deepEqual(loadConfig({ STACKS_API_ANALYTICS_SQL_TOKEN: 'a-long-enough-token', STACKS_API_ANALYTICS_SQL_MAX_ROWS: '5' }).analyticsSql, {
    token: 'a-long-enough-token',
    maxExecutionSeconds: 10,
    maxResultRows: 5,
    maxMemoryBytes: 1024 * 1024 * 1024,
  });
  assertEachNamed(loadConfig, [['STACKS_API_ANALYTICS_SQL_TOKEN', 'short'], ['STACKS_API_ANALYTICS_SQL_TOKEN', 'has spaces in the token']]);
  const withToken = (env: Record<string, string>) => loadConfig({ STACKS_API_ANALYTICS_SQL_TOKEN: 'a-long-enough-token', ...env });
  assertEachNamed(withToken, [['STACKS_API_ANALYTICS_SQL_MAX_SECONDS', '0'], ['STACKS_API_ANALYTICS_SQL_MAX_ROWS', 'many'], ['STACKS_API_ANALYTICS_SQL_MAX_MEMORY_MB', '-1']]);
});
