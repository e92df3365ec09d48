import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../config/config.ts';
import { formatAddress, loadProxyConfig } from './config.ts';

test('defaults: one node at 127.0.0.1:20443, 5 s polls, 10 blocks lag, 10 MiB bodies, 30 s timeout', () => {
  const c = loadProxyConfig({});
  assert.deepEqual(c.nodes, [{ host: '127.0.0.1', port: 20443 }]);
  assert.equal(c.healthIntervalMs, 5000);
  assert.equal(c.maxTipLag, 10);
  assert.equal(c.bodyLimit, 10 * 1024 * 1024);
  assert.equal(c.timeoutMs, 30_000);
  assert.equal(c.connectionsPerNode, undefined);
});

test('STACKS_CORE_RPC_HOST / STACKS_CORE_RPC_PORT give a single node', () => {
  const c = loadProxyConfig({ STACKS_CORE_RPC_HOST: 'stacks-node', STACKS_CORE_RPC_PORT: '30443' });
  assert.deepEqual(c.nodes, [{ host: 'stacks-node', port: 30443 }]);
});

test('STACKS_CORE_RPC_NODES gives a pool (hostnames, IPv4, bracketed IPv6)', () => {
  const c = loadProxyConfig({ STACKS_CORE_RPC_NODES: 'node-a.internal:20443, 10.0.0.2:20443,[::1]:20444' });
  assert.deepEqual(c.nodes, [
    { host: 'node-a.internal', port: 20443 },
    { host: '10.0.0.2', port: 20443 },
    { host: '::1', port: 20444 },
  ]);
  assert.equal(formatAddress(c.nodes[2]), '[::1]:20444');
});

test('STACKS_CORE_PROXY_HOST / _PORT override where proxied calls go, each falling back to the RPC setting', () => {
  const base = { STACKS_CORE_RPC_HOST: 'rpc', STACKS_CORE_RPC_PORT: '1111', STACKS_CORE_RPC_NODES: 'a:1,b:2' };
  assert.deepEqual(loadProxyConfig({ ...base, STACKS_CORE_PROXY_HOST: 'proxy', STACKS_CORE_PROXY_PORT: '2222' }).nodes, [{ host: 'proxy', port: 2222 }]);
  assert.deepEqual(loadProxyConfig({ ...base, STACKS_CORE_PROXY_HOST: 'proxy' }).nodes, [{ host: 'proxy', port: 1111 }]);
  assert.deepEqual(loadProxyConfig({ ...base, STACKS_CORE_PROXY_PORT: '2222' }).nodes, [{ host: 'rpc', port: 2222 }]);
});

test('tuning variables are read', () => {
  const c = loadProxyConfig({
    STACKS_CORE_PROXY_HEALTH_INTERVAL_MS: '250',
    STACKS_CORE_PROXY_MAX_TIP_LAG: '0',
    STACKS_CORE_PROXY_BODY_LIMIT: '1024',
    STACKS_CORE_PROXY_TIMEOUT_MS: '1500',
    STACKS_CORE_PROXY_CONNECTIONS: '32',
  });
  assert.deepEqual([c.healthIntervalMs, c.maxTipLag, c.bodyLimit, c.timeoutMs, c.connectionsPerNode], [250, 0, 1024, 1500, 32]);
});

test('a bad value throws ConfigError naming the variable', () => {
  const cases: [Record<string, string>, string][] = [
    [{ STACKS_CORE_RPC_PORT: 'abc' }, 'STACKS_CORE_RPC_PORT'],
    [{ STACKS_CORE_RPC_PORT: '0' }, 'STACKS_CORE_RPC_PORT'],
    [{ STACKS_CORE_RPC_HOST: 'bad host' }, 'STACKS_CORE_RPC_HOST'],
    [{ STACKS_CORE_PROXY_HOST: 'http://x' }, 'STACKS_CORE_PROXY_HOST'],
    [{ STACKS_CORE_PROXY_PORT: '70000' }, 'STACKS_CORE_PROXY_PORT'],
    [{ STACKS_CORE_RPC_NODES: 'a:1,,b:2' }, 'STACKS_CORE_RPC_NODES'],
    [{ STACKS_CORE_RPC_NODES: 'a' }, 'STACKS_CORE_RPC_NODES'],
    [{ STACKS_CORE_RPC_NODES: 'a:99999' }, 'STACKS_CORE_RPC_NODES'],
    [{ STACKS_CORE_RPC_NODES: 'a:0' }, 'STACKS_CORE_RPC_NODES'],
    [{ STACKS_CORE_RPC_NODES: 'a:1,A:1' }, 'STACKS_CORE_RPC_NODES'],
    [{ STACKS_CORE_RPC_NODES: '::1:20443' }, 'STACKS_CORE_RPC_NODES'],
    [{ STACKS_CORE_PROXY_HEALTH_INTERVAL_MS: '0' }, 'STACKS_CORE_PROXY_HEALTH_INTERVAL_MS'],
    [{ STACKS_CORE_PROXY_MAX_TIP_LAG: '-1' }, 'STACKS_CORE_PROXY_MAX_TIP_LAG'],
    [{ STACKS_CORE_PROXY_BODY_LIMIT: '10MB' }, 'STACKS_CORE_PROXY_BODY_LIMIT'],
    [{ STACKS_CORE_PROXY_TIMEOUT_MS: '1.5' }, 'STACKS_CORE_PROXY_TIMEOUT_MS'],
    [{ STACKS_CORE_PROXY_CONNECTIONS: '0' }, 'STACKS_CORE_PROXY_CONNECTIONS'],
  ];
  for (const [env, variable] of cases) {
    assert.throws(
      () => loadProxyConfig(env),
      (err: unknown) => err instanceof ConfigError && err.variable === variable && err.message.startsWith(`${variable}:`),
      JSON.stringify(env),
    );
  }
});
