// The route layer: request validation with the reference's error shape, and (in test mode) the
// response-schema check that backs every other HTTP test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rawRequest } from '../testing/http.ts';

process.env.STACKS_API_VALIDATE_RESPONSES = '1';
const { createApiApp } = await import('./app.ts');
const { listen } = await import('../server/server.ts');

test('params and query are validated; responses are checked against their schema', async () => {
  const app = createApiApp(
    [
      {
        method: 'get',
        path: '/thing/:id',
        params: { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9]+$' } } },
        query: { type: 'object', properties: { limit: { type: 'integer', maximum: 5, default: 2 } } },
        responses: { 200: { type: 'object', properties: { id: { type: 'string' } }, required: ['id', 'limit'] } },
        handler: async (req) => (req.params.id === '13' ? { id: req.params.id } : { id: req.params.id, limit: req.query.get('limit') }),
      },
    ],
    {},
  );
  const l = await listen(app, '127.0.0.1', 0);
  const get = async (p: string) => {
    const r = await fetch(`http://127.0.0.1:${l.port}${p}`);
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  try {
    assert.deepEqual(await get('/thing/7?limit=3'), { status: 200, body: { id: '7', limit: '3' } });
    const badParam = await get('/thing/x');
    assert.equal(badParam.status, 400);
    assert.equal(badParam.body.message, 'params/id must match pattern "^[0-9]+$"');
    assert.equal(badParam.body.code, 'FST_ERR_VALIDATION');
    const badQuery = await get('/thing/7?limit=9');
    assert.equal(badQuery.status, 400);
    assert.equal(badQuery.body.message, 'querystring/limit must be <= 5');
    const violation = await get('/thing/13');
    assert.equal(violation.status, 500);
    assert.match(String(violation.body.message), /must have required property 'limit'/);
    const missing = await get('/nothing');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'Not Found');
  } finally {
    l.close();
  }
});

test('a route\'s schemas are compiled when it is first asked, not when the app is built', async () => {
  // ajv refuses this schema when it compiles it: building the app must not, so a thread that
  // registers every route does not pay for the ones it never answers.
  const unknownType = { type: 'object', properties: { id: { type: 'no-such-type' } } };
  const app = createApiApp(
    [
      { method: 'get', path: '/fine', handler: async () => ({ ok: true }) },
      { method: 'get', path: '/never/:id', params: unknownType, query: unknownType, responses: { 200: unknownType }, handler: async () => ({}) },
    ],
    {},
  );
  const l = await listen(app, '127.0.0.1', 0);
  try {
    const r = await fetch(`http://127.0.0.1:${l.port}/fine`);
    assert.deepEqual({ status: r.status, body: await r.json() }, { status: 200, body: { ok: true } });
    // Asked, the route compiles its schema then, and the programming error is the one 500.
    assert.equal((await fetch(`http://127.0.0.1:${l.port}/never/1`)).status, 500);
  } finally {
    l.close();
  }
});

test('HTTP details: malformed escapes are a 400, numbers are range-checked, reason phrases, HEAD, CORS preflight, no uWS header', async () => {
  const app = createApiApp(
    [
      { method: 'get', path: '/item/:id', params: { type: 'object', properties: { id: { type: 'string' } } }, handler: async (req) => ({ id: req.params.id }) },
      { method: 'get', path: '/height/:h', params: { type: 'object', properties: { h: { type: 'integer' } } }, query: { type: 'object', properties: { offset: { type: 'integer' } } }, handler: async (req) => ({ h: Number(req.params.h) }) },
      { method: 'get', path: '/moved', handler: async () => ({ status: 301, headers: { location: '/item/1' }, body: '' }) },
    ],
    {},
  );
  const l = await listen(app, '127.0.0.1', 0);
  const url = (p: string) => `http://127.0.0.1:${l.port}${p}`;
  const raw = async (method: string, path: string, headers: Record<string, string> = {}) => {
    const r = await rawRequest(`http://127.0.0.1:${l.port}`, method, path, { headers });
    return { ...r, status: r.statusLine };
  };
  try {
    for (const path of ['/item/%zz', '/item/%E0%A4%A', '/item/%']) {
      const r = await raw('GET', path);
      assert.equal(r.status, 'HTTP/1.1 400 Bad Request', path);
      assert.equal(JSON.parse(r.body).message, `'${path}' is not a valid url component`);
    }
    assert.deepEqual(JSON.parse((await raw('GET', '/item/a%20b')).body), { id: 'a b' }, 'good escapes are decoded');
    for (const path of ['/height/18446744073709551616', '/height/9007199254740993', '/height/1e308', '/height/Infinity', '/height/4294967296', '/height/-1', '/height/1?offset=99999999999999999999']) {
      assert.equal((await fetch(url(path))).status, 400, path);
    }
    assert.equal((await fetch(url('/height/4294967295'))).status, 200);

    const ok = await raw('GET', '/item/1');
    assert.equal(ok.status, 'HTTP/1.1 200 OK');
    assert.equal(ok.headers.uwebsockets, undefined, 'no uWebSockets header');
    assert.equal(ok.headers['access-control-allow-origin'], '*');
    assert.equal((await raw('GET', '/moved')).status, 'HTTP/1.1 301 Moved Permanently');
    assert.equal((await raw('GET', '/nothing')).status, 'HTTP/1.1 404 Not Found');

    const head = await raw('HEAD', '/item/1');
    assert.equal(head.status, 'HTTP/1.1 200 OK');
    assert.equal(head.body, '');
    assert.equal(head.headers['content-length'], String(Buffer.byteLength(ok.body)));
    assert.equal(head.headers['content-type'], ok.headers['content-type']);
    assert.equal((await raw('HEAD', '/nothing')).status, 'HTTP/1.1 404 Not Found');

    const preflight = await raw('OPTIONS', '/item/1', { origin: 'https://example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' });
    assert.equal(preflight.status, 'HTTP/1.1 204 No Content');
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
    assert.match(String(preflight.headers['access-control-allow-methods']), /GET/);
    assert.equal(preflight.headers['access-control-allow-headers'], 'x-api-key');
    assert.equal((await raw('OPTIONS', '/item/1')).status, 'HTTP/1.1 400 Bad Request', 'not a preflight');
  } finally {
    l.close();
  }
});
