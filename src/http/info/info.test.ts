// The info family's constant answers: the fee-rate body is validated as the reference validates it,
// and the faucets answer a clear JSON error instead of a 404 or a 5xx.
import { test } from 'node:test';
import assert from 'node:assert/strict';

process.env.STACKS_API_VALIDATE_RESPONSES = '1';
const { createApiApp } = await import('../app.ts');
const { listen } = await import('../../server/server.ts');
const { infoRoutes } = await import('./routes.ts');

test('fee rate validates its JSON body; faucets say they are not offered', async () => {
  const l = await listen(createApiApp(infoRoutes, {} as never), '127.0.0.1', 0);
  const call = async (method: string, path: string, body?: string) => {
    const r = await fetch(`http://127.0.0.1:${l.port}${path}`, { method, body, headers: body === undefined ? undefined : { 'content-type': 'application/json' } });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  try {
    assert.deepEqual(await call('POST', '/extended/v1/fee_rate', JSON.stringify({ transaction: '0x00' })), { status: 200, body: { fee_rate: 400 } });
    const missing = await call('POST', '/extended/v1/fee_rate', JSON.stringify({}));
    assert.equal(missing.status, 400);
    assert.equal(missing.body.message, "body must have required property 'transaction'");
    assert.equal((await call('POST', '/extended/v1/fee_rate', '{not json')).status, 400);
    assert.equal((await call('POST', '/extended/v1/fee_rate', 'x'.repeat(2 * 1024 * 1024))).status, 413);
    for (const [method, path] of [['POST', '/extended/v1/faucets/stx?address=ST3M7N9Q9HDRM7RVP1Q26P0EE69358PZZAZD7KMXQ'], ['POST', '/extended/v1/faucets/btc'], ['GET', '/extended/v1/faucets/btc/2N4M94S1ZPt8HfxydXzL2P7qyzgVq7MHWts']]) {
      const r = await call(method, path);
      assert.equal(r.status, 403, path);
      assert.equal(r.body.success, false);
      assert.match(String(r.body.error), /not offered/);
    }
    assert.equal((await call('GET', '/extended/v1/info/network_block_time/devnet')).status, 400);
  } finally {
    l.close();
  }
});
