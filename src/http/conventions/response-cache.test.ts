import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseCache, responseCacheFromEnv } from './response-cache.ts';

const at = (commit: number, reorg = 0) => ({ commit, reorg });

test('entries are served only at the version they were made at', () => {
  const c = new ResponseCache(1 << 20);
  c.set('/a', 'commit', at(7), { status: 200, body: '{"x":1}' });
  assert.equal(c.get('/a', at(7))?.body, '{"x":1}');
  assert.equal(c.get('/a', at(7))?.status, 200);
  assert.equal(c.get('/a', at(8)), undefined, 'new chain data invalidates');
  assert.equal(c.get('/b', at(7)), undefined);
});

test('answers stable until a reorg outlive new chain data, not a reorg', () => {
  const c = new ResponseCache(1 << 20);
  c.set('/tx', 'reorg', at(7, 2), { status: 200, body: '{"canonical":true}' });
  c.set('/list', 'commit', at(7, 2), { status: 200, body: '[]' });
  assert.ok(c.get('/tx', at(9, 2)), 'kept across new blocks');
  assert.equal(c.get('/list', at(9, 2)), undefined);
  assert.equal(c.get('/tx', at(9, 3)), undefined, 'dropped by a reorg');
});

test('bounded by bytes, least recently used out first', () => {
  const c = new ResponseCache(16 * 1024);
  const body = 'x'.repeat(800);
  for (let i = 0; i < 8; i++) c.set(`/k${i}`, 'commit', at(1), { status: 200, body });
  assert.ok(c.get('/k0', at(1)), 'k0 used again');
  for (let i = 8; i < 12; i++) c.set(`/k${i}`, 'commit', at(1), { status: 200, body });
  assert.ok(c.get('/k0', at(1)), 'recently used entry kept');
  assert.equal(c.get('/k1', at(1)), undefined, 'least recently used entry evicted');
  assert.ok(c.get('/k11', at(1)));
});

test('configured by STACKS_API_RESPONSE_CACHE_MB; 0 turns it off', () => {
  assert.ok(responseCacheFromEnv({}));
  assert.equal(responseCacheFromEnv({ STACKS_API_RESPONSE_CACHE_MB: '0' }), undefined);
});
