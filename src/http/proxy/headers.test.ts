import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileExclusions, formatClientAddress, forwardRequestHeaders, forwardResponseHeaders } from './headers.ts';

const pairs = (flat: string[]): [string, string][] => {
  const out: [string, string][] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
};

test('request: hop-by-hop headers and those named in Connection are dropped, end-to-end ones kept in order', () => {
  const fwd = forwardRequestHeaders(
    [
      ['host', 'api.example'],
      ['connection', 'keep-alive, X-Hop'],
      ['connection', 'x-hop2'],
      ['x-hop', '1'],
      ['x-hop2', '2'],
      ['keep-alive', 'timeout=5'],
      ['proxy-authorization', 'Basic Zm9v'],
      ['proxy-connection', 'keep-alive'],
      ['te', 'trailers'],
      ['trailer', 'x-checksum'],
      ['transfer-encoding', 'chunked'],
      ['upgrade', 'websocket'],
      ['expect', '100-continue'],
      ['content-type', 'application/octet-stream'],
      ['accept', 'application/json'],
      ['accept', 'text/plain'],
    ],
    '192.0.2.10',
  );
  assert.deepEqual(pairs(fwd.headers), [
    ['content-type', 'application/octet-stream'],
    ['accept', 'application/json'],
    ['accept', 'text/plain'],
    ['x-forwarded-host', 'api.example'],
    ['x-forwarded-for', '192.0.2.10'],
  ]);
  assert.equal(fwd.transferEncoding, 'chunked');
  assert.equal(fwd.contentType, 'application/octet-stream');
});

test('request: the client address is appended to an existing X-Forwarded-For; X-Forwarded-Host is kept', () => {
  const fwd = forwardRequestHeaders(
    [
      ['x-forwarded-for', '203.0.113.7'],
      ['x-forwarded-for', '198.51.100.1'],
      ['x-forwarded-host', 'edge.example'],
      ['host', 'internal'],
      ['content-length', '12'],
    ],
    '127.0.0.1',
  );
  assert.deepEqual(pairs(fwd.headers), [
    ['x-forwarded-host', 'edge.example'],
    ['content-length', '12'],
    ['x-forwarded-for', '203.0.113.7, 198.51.100.1, 127.0.0.1'],
  ]);
  assert.equal(fwd.contentLength, '12');
});

test('request: with Transfer-Encoding, Content-Length is dropped (the body goes upstream chunked)', () => {
  const fwd = forwardRequestHeaders(
    [
      ['content-length', '5'],
      ['transfer-encoding', 'chunked'],
      ['accept', '*/*'],
    ],
    '',
  );
  assert.deepEqual(fwd.headers, ['accept', '*/*']);
  assert.equal(fwd.contentLength, undefined);
});

test('request: non-ASCII values go out as the bytes the client sent', () => {
  const fwd = forwardRequestHeaders([['x-name', 'café']], '');
  assert.deepEqual(Buffer.from(fwd.headers[1], 'latin1'), Buffer.from('café', 'utf8'));
});

test('response: hop-by-hop, Connection-named, Content-Length and Date dropped; the rest kept as sent', () => {
  const raw = [
    'Content-Type', 'application/json',
    'Connection', 'keep-alive, X-Resp-Hop',
    'X-Resp-Hop', '1',
    'Keep-Alive', 'timeout=5',
    'Transfer-Encoding', 'chunked',
    'Proxy-Authenticate', 'Basic',
    'Trailer', 'x-t',
    'Upgrade', 'h2c',
    'Date', 'Mon, 01 Jan 2024 00:00:00 GMT',
    'Content-Length', '42',
    'Set-Cookie', 'a=1',
    'Set-Cookie', 'b=2',
  ].map((s) => Buffer.from(s));
  const { headers, contentLength } = forwardResponseHeaders(raw);
  assert.equal(contentLength, 42);
  assert.deepEqual(
    headers.map(([k, v]) => [k.toString(), v.toString()]),
    [
      ['Content-Type', 'application/json'],
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
    ],
  );
});

test('client addresses from uWS binary form', () => {
  const bytes = (a: number[]): ArrayBuffer => new Uint8Array(a).buffer;
  assert.equal(formatClientAddress(bytes([127, 0, 0, 1])), '127.0.0.1');
  assert.equal(formatClientAddress(bytes([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 1])), '192.0.2.1');
  assert.equal(formatClientAddress(bytes([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])), '::1');
  assert.equal(formatClientAddress(bytes([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1])), '2001:db8::1:0:0:1');
  assert.equal(formatClientAddress(bytes([0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6])), '2001:db8:1:2:3:4:5:6');
});

test('exclusions: /x/* is a prefix (and /x itself), anything else exact', () => {
  const excluded = compileExclusions(['/v2/prices/*', '/v2/exact']);
  assert.equal(excluded('/v2/prices/names/foo.btc'), true);
  assert.equal(excluded('/v2/prices'), true);
  assert.equal(excluded('/v2/pricesx'), false);
  assert.equal(excluded('/v2/exact'), true);
  assert.equal(excluded('/v2/exact/more'), false);
  assert.equal(excluded('/v2/info'), false);
  assert.equal(compileExclusions([])('/v2/prices/x'), false);
});
