// The proxy against real loopback HTTP servers acting as Stacks nodes: forwarding, bodies, headers,
// errors, broadcast. Pool behaviour (spread, health, retries) is in pool.test.ts.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { Client, getGlobalDispatcher, request } from 'undici';
import { metric, rawRequest, startNode, startProxy, waitFor, type FakeNode, type Hit, type TestProxy } from './test-support.ts';
import { parseTxid, rawTxOf } from './proxy.ts';

// Kept-alive client sockets would hold uWS connections (and the process) open for seconds after the tests.
after(() => getGlobalDispatcher().destroy());

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

async function withSetup(
  nodeCount: number,
  fn: (nodes: FakeNode[], proxy: TestProxy) => Promise<void>,
  config: Parameters<typeof startProxy>[1] = {},
  options: Parameters<typeof startProxy>[2] = {},
  routes: Parameters<typeof startProxy>[3] = [],
): Promise<void> {
  const nodes: FakeNode[] = [];
  for (let i = 0; i < nodeCount; i++) nodes.push(await startNode(`n${i}`));
  const proxy = await startProxy(nodes, config, options, routes);
  try {
    await fn(nodes, proxy);
  } finally {
    await proxy.close();
    await Promise.all(nodes.map((n) => n.stop()));
  }
}

const allHits = (nodes: FakeNode[]): Hit[] => nodes.flatMap((n) => n.hits);

test('the five node endpoints round-trip byte for byte (request bytes at the node, response bytes at the client)', async () => {
  const accepted: [string, Buffer][] = [];
  const txid = 'ab'.repeat(32);
  const rawTx = randomBytes(181);
  const cases = [
    {
      method: 'POST',
      path: '/v2/transactions',
      contentType: 'application/octet-stream',
      body: rawTx,
      response: Buffer.from(JSON.stringify(txid)),
    },
    {
      method: 'POST',
      path: '/v2/transactions',
      contentType: 'application/json',
      body: Buffer.from(JSON.stringify({ tx: rawTx.toString('hex') })),
      response: Buffer.from(JSON.stringify(txid)),
    },
    {
      method: 'GET',
      path: '/v2/pox',
      body: undefined,
      response: Buffer.from('{"contract_id":"SP000000000000000000002Q6VF78.pox-4","pox_activation_threshold_ustx":700000000000,"first_burnchain_block_height":666050,"note":"caf\u00e9 \u2713"}'),
    },
    {
      method: 'POST',
      path: '/v2/contracts/call-read/SP000000000000000000002Q6VF78/pox-4/get-pox-info?tip=latest',
      contentType: 'application/json',
      body: Buffer.from('{"sender":"SP000000000000000000002Q6VF78","arguments":["0x0100000000000000000000000000000001"]}'),
      response: Buffer.from('{"okay":true,"result":"0x070c000000020a6d696e2d616d6f756e7401000000000000000000000000000186a0"}'),
    },
    {
      method: 'POST',
      path: '/v2/fees/transaction',
      contentType: 'application/json',
      body: Buffer.from('{"transaction_payload":"0x021a000000000000000000000000000000000000000003706f78","estimated_len":350}'),
      response: Buffer.from('{"estimated_cost":{"write_length":0,"write_count":0,"read_length":0,"read_count":0,"runtime":0},"estimated_cost_scalar":1,"estimations":[{"fee_rate":1,"fee":180},{"fee_rate":2,"fee":360},{"fee_rate":3,"fee":540}],"cost_scalar_change_by_byte":0.0}'),
    },
    {
      method: 'GET',
      path: '/v2/accounts/SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7?proof=0',
      body: undefined,
      response: Buffer.from('{"balance":"0x0000000000000000000000000098967f","locked":"0x00000000000000000000000000000000","unlock_height":0,"nonce":5,"balance_proof":"","nonce_proof":""}'),
    },
  ];
  await withSetup(
    1,
    async ([node], proxy) => {
      for (const c of cases) {
        node.handler = (_hit, _req, res) => {
          res.setHeader('content-type', 'application/json');
          res.setHeader('x-node-header', 'kept');
          res.end(c.response);
        };
        const before = node.hits.length;
        const r = await request(proxy.url + c.path, { method: c.method as 'GET' | 'POST', body: c.body, headers: c.contentType ? { 'content-type': c.contentType } : {} });
        const got = Buffer.from(await r.body.arrayBuffer());
        const what = `${c.method} ${c.path}`;
        assert.equal(r.statusCode, 200, what);
        assert.equal(r.headers['content-type'], 'application/json', what);
        assert.equal(r.headers['x-node-header'], 'kept', what);
        assert.deepEqual(got, c.response, what);
        assert.equal(node.hits.length, before + 1, what);
        const hit = node.hits[node.hits.length - 1];
        assert.equal(hit.method, c.method, what);
        assert.equal(hit.url, c.path, what);
        assert.deepEqual(hit.body, c.body ?? Buffer.alloc(0), what);
        if (c.contentType) assert.equal(hit.headers['content-type'], c.contentType, what);
      }
      await waitFor(() => accepted.length === 2, 2000, 'broadcast hook');
      assert.deepEqual(accepted, [
        [`0x${txid}`, rawTx],
        [`0x${txid}`, rawTx],
      ]);
    },
    {},
    { onBroadcastAccepted: (id, tx) => void accepted.push([id, tx]) },
  );
});

test('a rejected broadcast passes the node status and body through unchanged, and the hook is not called', async () => {
  const calls: string[] = [];
  const rejection = Buffer.from('{"error":"transaction rejected","reason":"NotEnoughFunds","reason_data":{"expected":"0x3e8","actual":"0x0"},"txid":"' + 'cd'.repeat(32) + '"}');
  await withSetup(
    1,
    async ([node], proxy) => {
      node.handler = (_hit, _req, res) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(rejection);
      };
      const r = await request(proxy.url + '/v2/transactions', { method: 'POST', body: randomBytes(120), headers: { 'content-type': 'application/octet-stream' } });
      assert.equal(r.statusCode, 400);
      assert.deepEqual(Buffer.from(await r.body.arrayBuffer()), rejection);
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(calls, []);
    },
    {},
    { onBroadcastAccepted: (id) => void calls.push(id) },
  );
});

test('a 5 MB request body streams through intact; 5 MB responses come back intact with and without Content-Length', async () => {
  const payload = randomBytes(5 * 1024 * 1024);
  await withSetup(1, async ([node], proxy) => {
    node.handler = (hit, req, res) => {
      if (hit.method === 'POST') {
        res.setHeader('content-type', 'text/plain');
        res.end(sha256(hit.body));
      } else if (req.url === '/v2/big/length') {
        res.setHeader('content-length', payload.length);
        res.end(payload);
      } else {
        // No Content-Length: node:http sends it chunked, 64 KiB at a time.
        for (let i = 0; i < payload.length; i += 65536) res.write(payload.subarray(i, i + 65536));
        res.end();
      }
    };
    // Sent as a stream (chunked) and with a Content-Length.
    for (const body of [Readable.from((function* () { for (let i = 0; i < payload.length; i += 100_000) yield payload.subarray(i, i + 100_000); })()), payload]) {
      const r = await request(proxy.url + '/v2/contracts/call-read/SP1/big/fn', { method: 'POST', body });
      assert.equal(r.statusCode, 200);
      assert.equal(await r.body.text(), sha256(payload));
    }
    for (const path of ['/v2/big/length', '/v2/big/chunked']) {
      const r = await request(proxy.url + path);
      assert.equal(r.statusCode, 200);
      // A client slow to read: uWS fills up, the proxy holds the node back (tryEnd/write + onWritable).
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.equal(sha256(Buffer.from(await r.body.arrayBuffer())), sha256(payload), path);
    }
  });
});

test('a node answering before reading a large body: the client gets the answer and its connection stays usable', async () => {
  await withSetup(1, async ([node], proxy) => {
    node.early = (req, res) => {
      if (req.url !== '/v2/contracts/call-read/SP1/c/early') return false;
      // Answers without reading: the upload backs up into the proxy, which pauses the client.
      setTimeout(() => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end('{"error":"rejected early"}');
      }, 100);
      return true;
    };
    const client = new Client(proxy.url, { pipelining: 1 });
    try {
      const r = await client.request({ method: 'POST', path: '/v2/contracts/call-read/SP1/c/early', body: Buffer.alloc(8 * 1024 * 1024, 3) });
      assert.equal(r.statusCode, 400);
      assert.equal(await r.body.text(), '{"error":"rejected early"}');
      const next = await client.request({ method: 'GET', path: '/v2/pox' });
      assert.equal(next.statusCode, 200);
      await next.body.dump();
    } finally {
      await client.destroy();
    }
  });
});

test('a 20 MB body gets a 413 without reaching a node (by Content-Length, and by counting a chunked body)', async () => {
  await withSetup(1, async ([node], proxy) => {
    const big = Buffer.alloc(20 * 1024 * 1024, 1);
    const r = await request(proxy.url + '/v2/transactions', { method: 'POST', body: big, headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(r.statusCode, 413);
    const body = (await r.body.json()) as { error: string; message: string };
    assert.equal(body.error, 'Payload Too Large');
    assert.match(body.message, /10485760 bytes/);
    // Chunked: no Content-Length to check up front, the proxy counts the bytes as they stream.
    const chunked = await rawRequest(proxy.port, 'POST /v2/contracts/call-read/SP1/c/f HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n', chunkedBody(Buffer.alloc(11 * 1024 * 1024, 2), 256 * 1024));
    assert.equal(chunked.status, 413);
    assert.equal((JSON.parse(chunked.body.toString()) as { error: string }).error, 'Payload Too Large');
    assert.equal(node.hits.length, 0);
    assert.equal(metric(proxy.proxy.metricsText(), 'stacks_proxy_rejected_total', { reason: 'body_too_large' }), 2);
  });
});

function chunkedBody(data: Buffer, size: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < data.length; i += size) {
    const c = data.subarray(i, i + size);
    parts.push(Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

test('hop-by-hop headers are not forwarded either way; X-Forwarded-For is appended to', async () => {
  await withSetup(1, async ([node], proxy) => {
    node.handler = (_hit, _req, res) => {
      res.setHeader('Connection', 'keep-alive, X-Resp-Hop');
      res.setHeader('X-Resp-Hop', 'secret');
      res.setHeader('Keep-Alive', 'timeout=5');
      res.setHeader('Proxy-Authenticate', 'Basic realm="node"');
      res.setHeader('Trailer', 'X-Checksum');
      res.setHeader('Upgrade', 'h2c');
      res.setHeader('X-Kept', 'yes');
      res.setHeader('Content-Type', 'application/json');
      res.write('{"estimations":');
      res.end('[]}');
    };
    const body = '{"transaction_payload":"0x00","estimated_len":1}';
    const r = await rawRequest(
      proxy.port,
      'POST /v2/fees/transaction HTTP/1.1\r\n' +
        'Host: api.example\r\n' +
        'Connection: keep-alive, X-Hop-Secret\r\n' +
        'X-Hop-Secret: s3cr3t\r\n' +
        'Keep-Alive: timeout=5\r\n' +
        'Proxy-Authorization: Basic Zm9vOmJhcg==\r\n' +
        'Proxy-Connection: keep-alive\r\n' +
        'TE: trailers\r\n' +
        'Trailer: X-Checksum\r\n' +
        'Upgrade: h2c\r\n' +
        'X-Forwarded-For: 203.0.113.7\r\n' +
        'X-End-To-End: kept\r\n' +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\n\r\n`,
      Buffer.from(body),
    );
    assert.equal(r.status, 200);
    assert.equal(r.body.toString(), '{"estimations":[]}');
    const names = r.headers.map(([k]) => k.toLowerCase());
    for (const h of ['x-resp-hop', 'keep-alive', 'proxy-authenticate', 'trailer', 'upgrade']) assert.ok(!names.includes(h), `response header ${h} leaked`);
    assert.ok(r.headers.some(([k, v]) => k === 'X-Kept' && v === 'yes'));
    assert.equal(names.filter((n) => n === 'transfer-encoding' || n === 'content-length').length, 1, 'framed once, by uWS');

    const hit = node.hits[0];
    for (const h of ['x-hop-secret', 'keep-alive', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'upgrade']) assert.equal(hit.headers[h], undefined, `request header ${h} leaked`);
    assert.equal(hit.headers.connection, 'keep-alive'); // undici's own
    assert.equal(hit.headers['x-end-to-end'], 'kept');
    assert.equal(hit.headers['x-forwarded-for'], '203.0.113.7, 127.0.0.1');
    assert.equal(hit.headers['x-forwarded-host'], 'api.example');
    assert.equal(hit.headers.host, `127.0.0.1:${node.port}`);
    assert.equal(hit.body.toString(), body);

    await request(proxy.url + '/v2/info').then((x) => x.body.dump());
    const plain = await request(proxy.url + '/v2/pox');
    await plain.body.dump();
    assert.equal(node.hits[1].headers['x-forwarded-for'], '127.0.0.1');
  });
});

test('HEAD and 204 responses end without a body and keep the connection usable', async () => {
  await withSetup(1, async ([node], proxy) => {
    node.handler = (hit, _req, res) => {
      if (hit.url === '/v2/empty') {
        res.writeHead(204);
        res.end();
      } else {
        res.setHeader('content-type', 'application/json');
        res.setHeader('content-length', 11); // node:http leaves it out of HEAD answers otherwise
        res.end('{"ok":true}');
      }
    };
    const head = await request(proxy.url + '/v2/pox', { method: 'HEAD' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-length'], '11');
    assert.equal((await head.body.arrayBuffer()).byteLength, 0);
    const empty = await request(proxy.url + '/v2/empty');
    assert.equal(empty.statusCode, 204);
    await empty.body.dump();
    const after = await request(proxy.url + '/v2/pox');
    assert.equal(await after.body.text(), '{"ok":true}');
  });
});

test('a slow node gives a 504 JSON error, not retried, without internal addresses', async () => {
  await withSetup(
    2,
    async (nodes, proxy) => {
      for (const n of nodes) n.handler = () => {}; // never answers
      const r = await request(proxy.url + '/v2/accounts/SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7');
      assert.equal(r.statusCode, 504);
      assert.match(r.headers['content-type'] as string, /application\/json/);
      const body = (await r.body.json()) as { error: string; message: string };
      assert.deepEqual(Object.keys(body), ['error', 'message']);
      assert.equal(body.error, 'Gateway Timeout');
      assert.match(body.message, /did not respond within 300 ms/);
      assert.doesNotMatch(body.message, /127\.0\.0\.1|:\d{2,5}/);
      assert.equal(allHits(nodes).length, 1, 'a timeout is not retried');
      const text = proxy.proxy.metricsText();
      const timeouts = ['node0', 'node1'].map((node) => metric(text, 'stacks_proxy_upstream_errors_total', { node, kind: 'timeout' }) ?? 0);
      assert.equal(timeouts[0] + timeouts[1], 1);
    },
    { timeoutMs: 300 },
  );
});

test('no healthy node gives a 503; a node that breaks the protocol gives a 502', async () => {
  await withSetup(1, async ([node], proxy) => {
    node.handler = (hit, req, res) => {
      if (hit.url === '/v2/garbage') req.socket.end('NOT HTTP AT ALL\r\n\r\n');
      else if (hit.url === '/v2/drop') req.socket.destroy();
      else res.end('{}');
    };
    for (const [path, message] of [
      ['/v2/garbage', /invalid HTTP response/],
      ['/v2/drop', /closed the connection/],
    ] as const) {
      const r = await request(proxy.url + path);
      assert.equal(r.statusCode, 502, path);
      const body = (await r.body.json()) as { error: string; message: string };
      assert.equal(body.error, 'Bad Gateway');
      assert.match(body.message, message);
      assert.doesNotMatch(body.message, /127\.0\.0\.1/);
    }
    await node.stop();
    await waitFor(() => metric(proxy.proxy.metricsText(), 'stacks_proxy_node_healthy', { node: 'node0' }) === 0, 5000, 'node0 out of rotation');
    const r = await request(proxy.url + '/v2/info');
    assert.equal(r.statusCode, 503);
    assert.deepEqual(await r.body.json(), { error: 'Service Unavailable', message: 'no healthy Stacks node is available' });
    await node.restart();
  });
});

test('a client that goes away aborts the upstream request', async () => {
  await withSetup(1, async ([node], proxy) => {
    let upstreamClosed = false;
    node.handler = (_hit, _req, res) => {
      res.on('close', () => (upstreamClosed = true));
    };
    const ac = new AbortController();
    const pending = request(proxy.url + '/v2/hang', { signal: ac.signal }).catch((err: Error) => err);
    await waitFor(() => node.hits.length === 1, 5000, 'request at the node');
    ac.abort();
    assert.ok((await pending) instanceof Error);
    await waitFor(() => upstreamClosed, 5000, 'upstream request aborted');
    await waitFor(() => metric(proxy.proxy.metricsText(), 'stacks_proxy_node_inflight', { node: 'node0' }) === 0, 5000, 'inflight back to 0');
  });
});

test('paths the API answers itself are not proxied, whatever the route order; /metrics is served', async () => {
  const routes = [{ method: 'get' as const, path: '/v2/prices/names/:name', handler: async (req: { params: Record<string, string> }) => ({ source: 'api', name: req.params.name }) }];
  await withSetup(
    1,
    async ([node], proxy) => {
      const own = await request(proxy.url + '/v2/prices/names/muneeb.btc');
      assert.deepEqual(await own.body.json(), { source: 'api', name: 'muneeb.btc' });
      // No API route for these: they fall through to the API's 404, not to the node.
      for (const [method, path] of [['POST', '/v2/prices/names/muneeb.btc'], ['GET', '/v2/prices/namespaces/btc'], ['GET', '/v2/secret']] as const) {
        const r = await request(proxy.url + path, { method });
        assert.equal(r.statusCode, 404, `${method} ${path}`);
        await r.body.dump();
      }
      assert.equal(node.hits.length, 0);
      const info = await request(proxy.url + '/v2/info');
      assert.equal(((await info.body.json()) as { stacks_tip_height: number }).stacks_tip_height, 1000);
      const m = await request(proxy.url + '/metrics');
      assert.match(m.headers['content-type'] as string, /^text\/plain; version=0\.0\.4/);
      const text = await m.body.text();
      assert.equal(metric(text, 'stacks_proxy_upstream_requests_total', { node: 'node0' }), 1);
      assert.equal(metric(text, 'stacks_proxy_upstream_responses_total', { node: 'node0', code: '2xx' }), 1);
      assert.equal(metric(text, 'stacks_proxy_upstream_latency_seconds_count', { node: 'node0' }), 1);
      assert.equal(metric(text, 'stacks_proxy_node_healthy', { node: 'node0' }), 1);
    },
    {},
    { exclude: ['/v2/prices/*', '/v2/secret'] },
    routes as never,
  );
});

test('txid and raw transaction extraction for the broadcast hook', () => {
  assert.equal(parseTxid(JSON.stringify('AB'.repeat(32))), `0x${'ab'.repeat(32)}`);
  assert.equal(parseTxid(JSON.stringify(`0x${'ab'.repeat(32)}`)), `0x${'ab'.repeat(32)}`);
  assert.equal(parseTxid('{"txid":"x"}'), undefined);
  assert.equal(parseTxid('not json'), undefined);
  const tx = Buffer.from('0080800000000400', 'hex');
  assert.deepEqual(rawTxOf(tx, 'application/octet-stream'), tx);
  assert.deepEqual(rawTxOf(tx, undefined), tx);
  assert.deepEqual(rawTxOf(Buffer.from(JSON.stringify({ tx: tx.toString('hex') })), 'application/json'), tx);
  assert.deepEqual(rawTxOf(Buffer.from(JSON.stringify({ tx: `0x${tx.toString('hex')}` })), 'application/json; charset=utf-8'), tx);
  assert.equal(rawTxOf(Buffer.from('{"tx":"zz"}'), 'application/json'), undefined);
});
