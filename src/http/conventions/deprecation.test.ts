// Hiro v9's deprecation switch: the routes it deprecates carry its Warning header; with
// ENABLE_DEPRECATED_ENDPOINTS=false they answer 410 Gone with its body, and the others answer as
// before. Which routes: exactly those the official client 9.0.2 marks deprecated, among ours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startService } from '../../testing/service.ts';
import { apiRoutes } from '../routes.ts';
import { deprecatedInV9, DEPRECATION_WARNING, GONE, readDeprecatedEndpoints } from './deprecation.ts';

/** `METHOD /path/{param}` of every operation the client's generated schema marks @deprecated. */
function clientDeprecated(): Set<string> {
  const pkg = createRequire(import.meta.url).resolve('@stacks/blockchain-api-client/package.json');
  const text = readFileSync(join(dirname(pkg), 'lib', 'generated', 'schema.d.ts'), 'utf8');
  const paths = text.slice(text.indexOf('export interface paths'), text.indexOf('export interface components'));
  const out = new Set<string>();
  let path = '';
  for (const m of paths.matchAll(/^ {4}"(\/[^"]+)": \{|^ {8}\/\*\*([\s\S]*?)\*\/\n {8}(get|post): operations/gm)) {
    if (m[1]) path = m[1].replace(/\/$/, '');
    else if (m[2].includes('@deprecated')) out.add(`${m[3].toUpperCase()} ${path}`);
  }
  return out;
}

test('the deprecated routes are the ones the client 9.0.2 marks deprecated', () => {
  const marked = clientDeprecated();
  assert.ok(marked.size > 30, `only ${marked.size} deprecated operations found in the client`);
  const ours = apiRoutes.map((r) => ({ key: `${r.method.toUpperCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`, deprecated: deprecatedInV9(r.method, r.path) }));
  const shape = (k: string) => k.replace(/\{\w+\}/g, '{}');
  const markedShapes = new Set([...marked].map(shape));
  assert.deepEqual(ours.filter((r) => r.deprecated !== markedShapes.has(shape(r.key))).map((r) => r.key), []);
  assert.ok(ours.filter((r) => r.deprecated).length >= 30);
});

test('deprecated routes warn by default, and answer 410 Gone when disabled', async () => {
  for (const enabled of [true, false]) {
    const svc = await startService({ env: enabled ? {} : { ENABLE_DEPRECATED_ENDPOINTS: 'false' } });
    try {
      const v1 = await fetch(`${svc.apiUrl}/extended/v1/tx`);
      assert.equal(v1.headers.get('warning'), DEPRECATION_WARNING.warning);
      if (enabled) assert.equal(v1.status, 200);
      else {
        assert.equal(v1.status, 410);
        assert.deepEqual(await v1.json(), GONE.body);
      }
      const post = await fetch(`${svc.apiUrl}/extended/v1/fee_rate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ transaction: '0x00' }) });
      assert.equal(post.status === 410, !enabled);
      // Its successor, and a route v9 keeps, answer either way and do not warn.
      for (const path of ['/extended/v3/transactions', '/extended/v2/blocks']) {
        const r = await fetch(`${svc.apiUrl}${path}`);
        assert.equal(r.status, 200, path);
        assert.equal(r.headers.get('warning'), null, path);
      }
    } finally {
      await svc.stop();
    }
  }
});

test('ENABLE_DEPRECATED_ENDPOINTS reads as the reference reads a boolean; anything else is a configuration error', () => {
  assert.equal(readDeprecatedEndpoints({}), true);
  for (const on of ['true', '1', 'TRUE']) assert.equal(readDeprecatedEndpoints({ ENABLE_DEPRECATED_ENDPOINTS: on }), true);
  for (const off of ['false', '0', 'False']) assert.equal(readDeprecatedEndpoints({ ENABLE_DEPRECATED_ENDPOINTS: off }), false);
  assert.throws(() => readDeprecatedEndpoints({ ENABLE_DEPRECATED_ENDPOINTS: 'no' }), /ENABLE_DEPRECATED_ENDPOINTS: expected true or false/);
});
