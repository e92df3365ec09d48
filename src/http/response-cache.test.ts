import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseCache, responseCacheFromEnv } from './response-cache.ts';

test('entries are served only at the version they were made at', () => {
  const c = new ResponseCache(1 << 20);
  c.set('/a', 7, { status: 200, body: '{"x":1}' });
  assert.equal(c.get('/a', 7)?.body, '{"x":1}');
  assert.equal(c.get('/a', 7)?.status, 200);
  assert.equal(c.get('/a', 8), undefined, 'new chain data invalidates');
  assert.equal(c.get('/b', 7), undefined);
});

test('bounded by bytes, least recently used out first', () => {
  const c = new ResponseCache(16 * 1024);
  const body = 'x'.repeat(800);
  for (let i = 0; i < 8; i++) c.set(`/k${i}`, 1, { status: 200, body });
  assert.ok(c.get('/k0', 1), 'k0 used again');
  for (let i = 8; i < 12; i++) c.set(`/k${i}`, 1, { status: 200, body });
  assert.ok(c.get('/k0', 1), 'recently used entry kept');
  assert.equal(c.get('/k1', 1), undefined, 'least recently used entry evicted');
  assert.ok(c.get('/k11', 1));
});

test('configured by STACKS_API_RESPONSE_CACHE_MB; 0 turns it off', () => {
  assert.ok(responseCacheFromEnv({}));
  assert.equal(responseCacheFromEnv({ STACKS_API_RESPONSE_CACHE_MB: '0' }), undefined);
});
