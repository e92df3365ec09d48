// The route layer: request validation with the reference's error shape, and (in test mode) the
// response-schema check that backs every other HTTP test.
import { test } from 'node:test';
import assert from 'node:assert/strict';

process.env.STACKS_API_VALIDATE_RESPONSES = '1';
const { createApiApp, listen } = await import('./server.ts');

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
