// HTTP conventions of the route layer: CORS (any origin by default, or a configured list, and the
// preflight), ETag with 304 on If-None-Match (also from the response cache and for HEAD),
// Cache-Control (final answers may be kept, the rest revalidated), and one record per answered
// request (what metrics and the request log are made from).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rawRequest } from '../../testing/http.ts';
import { createApiApp } from '../app.ts';
import { listen } from '../../server/server.ts';
import { CorsPolicy } from '../../server/cors.ts';
import { ResponseCache } from './response-cache.ts';
import { JsonText } from '../../server/json-text.ts';
import { identityTagOf } from './etag.ts';
import { formatRequestLine } from './request-log.ts';
import type { AnsweredRequest, RouteDef } from '../route.ts';

function serve(routes: RouteDef<unknown>[], opts: { cors?: CorsPolicy; tip?: number; answered?: AnsweredRequest[]; version?: () => number } = {}) {
  const cache = new ResponseCache(1024 * 1024);
  const app = createApiApp(routes, {}, [], opts.version ? { cache, versions: () => ({ commit: opts.version!(), reorg: 0 }) } : undefined, {
    cors: opts.cors,
    tipHeight: () => opts.tip,
    settledDepth: 100,
    onAnswer: (a) => opts.answered?.push(a),
    remoteAddress: true,
  });
  return listen(app, '127.0.0.1', 0);
}

const thing: RouteDef<unknown> = { method: 'get', path: '/thing/:id', handler: async (req) => ({ id: req.params.id }) };

test('CORS: any origin by default; a configured list echoes listed origins only; preflight follows the policy', async () => {
  const any = await serve([thing]);
  const listed = await serve([thing], { cors: new CorsPolicy(['https://explorer.example']) });
  try {
    const base = (l: { port: number }) => `http://127.0.0.1:${l.port}`;
    const a = await rawRequest(base(any), 'GET', '/thing/1', { headers: { origin: 'https://anywhere.example' } });
    assert.equal(a.headers['access-control-allow-origin'], '*');
    assert.equal(a.headers['access-control-expose-headers'], 'X-API-Version');
    const notFound = await rawRequest(base(any), 'GET', '/nothing', { headers: { origin: 'https://anywhere.example' } });
    assert.equal(notFound.status, 404);
    assert.equal(notFound.headers['access-control-allow-origin'], '*');
    const pre = await rawRequest(base(any), 'OPTIONS', '/thing/1', { headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' } });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-origin'], '*');
    assert.match(String(pre.headers['access-control-allow-methods']), /GET/);
    assert.equal(pre.headers['access-control-allow-headers'], 'if-none-match');
    assert.equal((await rawRequest(base(any), 'OPTIONS', '/thing/1')).status, 400, 'not a preflight');

    const ok = await rawRequest(base(listed), 'GET', '/thing/1', { headers: { origin: 'https://explorer.example' } });
    assert.equal(ok.headers['access-control-allow-origin'], 'https://explorer.example');
    assert.equal(ok.headers.vary, 'Origin');
    const other = await rawRequest(base(listed), 'GET', '/thing/1', { headers: { origin: 'https://evil.example' } });
    assert.equal(other.status, 200);
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    const prePass = await rawRequest(base(listed), 'OPTIONS', '/thing/1', { headers: { origin: 'https://explorer.example', 'access-control-request-method': 'GET' } });
    assert.equal(prePass.headers['access-control-allow-origin'], 'https://explorer.example');
    const preFail = await rawRequest(base(listed), 'OPTIONS', '/thing/1', { headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    assert.equal(preFail.status, 204);
    assert.equal(preFail.headers['access-control-allow-origin'], undefined);
    assert.equal(preFail.headers['access-control-allow-methods'], undefined);
  } finally {
    any.close();
    listed.close();
  }
});

test('ETag and 304: tags follow the answer, If-None-Match gets a 304 (cached or not, GET or HEAD), a changed answer a 200', async () => {
  let data = 1;
  let version = 1;
  const answered: AnsweredRequest[] = [];
  const routes: RouteDef<unknown>[] = [
    { method: 'get', path: '/data', handler: async () => ({ data }) },
    { method: 'get', path: '/fresh', cache: false, handler: async () => ({ data }) },
    // Assembled as bytes, tagged by what determines it (the v2 block txs page does both).
    { method: 'get', path: '/identity', handler: async () => new JsonText(Buffer.from(JSON.stringify({ data })), false, identityTagOf(`data ${data}`)) },
    { method: 'get', path: '/settled/:height', handler: async (req) => new JsonText(`{"tx_id":"0x01","block_height":${Number(req.params.height)}}`, true) },
    { method: 'get', path: '/gone', handler: async () => ({ status: 404, body: { error: 'not found' } }) },
  ];
  const l = await serve(routes, { tip: 500, answered, version: () => version });
  const base = `http://127.0.0.1:${l.port}`;
  try {
    for (const path of ['/data', '/fresh', '/identity']) {
      const first = await rawRequest(base, 'GET', path);
      assert.equal(first.status, 200);
      const etag = String(first.headers.etag);
      assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
      assert.equal(etag === identityTagOf(`data ${data}`), path === '/identity', `${path}: the identity tag only where the answer brings one`);
      assert.deepEqual(JSON.parse(first.body), { data });
      assert.equal(first.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(first.headers['cache-control'], 'public, no-cache, must-revalidate');
      // The second answer comes from the response cache (for /data) with the same tag.
      const again = await rawRequest(base, 'GET', path);
      assert.equal(again.headers.etag, etag);
      const not = await rawRequest(base, 'GET', path, { headers: { 'if-none-match': etag } });
      assert.equal(not.statusLine, 'HTTP/1.1 304 Not Modified');
      assert.equal(not.body, '');
      assert.equal(not.headers.etag, etag);
      assert.equal((await rawRequest(base, 'GET', path, { headers: { 'if-none-match': `"other", W/${etag}` } })).status, 304, 'a list, weak form');
      assert.equal((await rawRequest(base, 'HEAD', path, { headers: { 'if-none-match': etag } })).status, 304);
      assert.equal((await rawRequest(base, 'GET', path, { headers: { 'if-none-match': '"other"' } })).status, 200);
      data++;
      version++;
      const changed = await rawRequest(base, 'GET', path, { headers: { 'if-none-match': etag } });
      assert.equal(changed.status, 200, 'new data: the full answer');
      assert.notEqual(changed.headers.etag, etag);
      assert.deepEqual(JSON.parse(changed.body), { data });
    }
    // A settled answer far below the tip may be kept; one near the tip is revalidated.
    assert.equal((await rawRequest(base, 'GET', '/settled/300')).headers['cache-control'], 'public, max-age=86400, immutable');
    assert.equal((await rawRequest(base, 'GET', '/settled/450')).headers['cache-control'], 'public, no-cache, must-revalidate');
    const gone = await rawRequest(base, 'GET', '/gone');
    assert.equal(gone.status, 404);
    assert.equal(gone.headers.etag, undefined, 'errors carry no tag');
  } finally {
    l.close();
  }
  const data304 = answered.filter((a) => a.route === '/data' && a.status === 304);
  assert.ok(data304.length >= 3 && data304.every((a) => a.cached), 'answered requests are recorded, with their route and whether the cache answered');
  assert.match(answered[0].remoteAddress, /^(127\.0\.0\.1|(0000:){5}ffff:7f00:0001)$/, 'the client address, as text');
  const line = formatRequestLine(answered[0], new Date(0));
  assert.match(line, /^1970-01-01T00:00:00\.000Z \S+ GET \/data 200 \d+B \d+\.\d{3}ms$/);
});
