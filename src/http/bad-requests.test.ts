// Requests a stranger can send to the running service: malformed escapes and out-of-range numbers
// are 400s, never a 500 or a dead process; HEAD, OPTIONS and the status lines are right.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, waitForProcessing } from '../testing/service.ts';
import { rawRequest } from '../testing/http.ts';
import { feedFixture } from '../testing/goldens.ts';

const ADDRESS = 'ST2ZRX0K27GW0SP3GJCEMHD95TQGJMKB7G9Y0X1MH';

async function expect400s(paths: string[]): Promise<void> {
  const svc = await startService();
  try {
    await feedFixture(svc.eventUrl, 'fuzzed-transactions-1');
    await waitForProcessing(svc.apiUrl);
    for (const path of paths) {
      const r = await rawRequest(svc.apiUrl, 'GET', path);
      assert.equal(r.status, 400, `${path}: ${r.body}`);
      assert.equal(JSON.parse(r.body).error, 'Bad Request', path);
    }
    // Both servers still answer.
    assert.equal((await rawRequest(svc.apiUrl, 'GET', '/extended')).status, 200);
    assert.equal((await rawRequest(svc.eventUrl, 'GET', '/')).status, 200);
    assert.equal(svc.child.exitCode, null);
  } finally {
    await svc.stop();
  }
}

test('a malformed % escape in a path parameter is a 400, and the service keeps answering', { timeout: 180_000 }, () =>
  expect400s(['/extended/v1/tx/%zz', `/extended/v1/address/%E0%A4%A/balances`, '/extended/v2/blocks/%/transactions']));

test('out-of-range numbers are a 400, never a 500', { timeout: 180_000 }, () =>
  expect400s([
    '/extended/v1/block/by_height/18446744073709551616',
    '/extended/v1/block/by_height/9007199254740993',
    '/extended/v1/block/by_height/1e308',
    '/extended/v1/block/by_height/Infinity',
    '/extended/v2/blocks/99999999999999999999999999/transactions',
    `/extended/v1/address/${ADDRESS}/nonces?block_height=18446744073709551616`,
    '/extended/v1/block?offset=1e21',
    '/extended/v1/tx?limit=10&offset=18446744073709551616',
  ]));

test('status lines carry their reason phrase; HEAD works for every GET; OPTIONS answers CORS preflight; no uWebSockets header', { timeout: 180_000 }, async () => {
  const svc = await startService();
  try {
    const ok = await rawRequest(svc.apiUrl, 'GET', '/extended');
    assert.equal(ok.statusLine, 'HTTP/1.1 200 OK');
    assert.equal(ok.headers.uwebsockets, undefined);
    assert.equal((await rawRequest(svc.eventUrl, 'GET', '/')).headers.uwebsockets, undefined, 'observer too');
    assert.equal((await rawRequest(svc.apiUrl, 'GET', '/')).statusLine, 'HTTP/1.1 301 Moved Permanently');
    for (const path of ['/extended', '/extended/v1/block?limit=1', '/extended/v2/blocks', '/extended/v1/openapi.json', '/metrics', '/']) {
      const get = await rawRequest(svc.apiUrl, 'GET', path);
      const head = await rawRequest(svc.apiUrl, 'HEAD', path);
      assert.equal(head.statusLine, get.statusLine, path);
      assert.equal(head.body, '');
      assert.equal(head.headers['content-type'], get.headers['content-type'], path);
    }
    assert.equal((await rawRequest(svc.eventUrl, 'HEAD', '/')).status, 200);
    const pre = await rawRequest(svc.apiUrl, 'OPTIONS', '/extended/v1/block', { headers: { origin: 'https://explorer.example', 'access-control-request-method': 'GET' } });
    assert.equal(pre.statusLine, 'HTTP/1.1 204 No Content');
    assert.equal(pre.headers['access-control-allow-origin'], '*');
  } finally {
    await svc.stop();
  }
});
