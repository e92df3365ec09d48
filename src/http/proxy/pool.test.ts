// The pool behind the proxy, end to end: load spreading, health polling (down, lagging, back), retries.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { getGlobalDispatcher, request } from 'undici';
import { metric, startNode, startProxy, waitFor, type FakeNode, type TestProxy } from './test-support.ts';

// Kept-alive client sockets would hold uWS connections (and the process) open for seconds after the tests.
after(() => getGlobalDispatcher().destroy());

async function withPool(
  tips: number[],
  fn: (nodes: FakeNode[], proxy: TestProxy) => Promise<void>,
  config: Parameters<typeof startProxy>[1] = {},
  options: Parameters<typeof startProxy>[2] = {},
): Promise<void> {
  const nodes: FakeNode[] = [];
  for (let i = 0; i < tips.length; i++) nodes.push(await startNode(`n${i}`, { tip: tips[i] }));
  const proxy = await startProxy(nodes, config, options);
  try {
    await fn(nodes, proxy);
  } finally {
    await proxy.close();
    await Promise.all(nodes.map((n) => n.stop().catch(() => {})));
  }
}

async function get(proxy: TestProxy, path: string): Promise<{ status: number; node?: string }> {
  const r = await request(proxy.url + path);
  const body = (await r.body.json()) as { node?: string };
  return { status: r.statusCode, node: body.node };
}

const healthy = (proxy: TestProxy, node: string): number | undefined => metric(proxy.proxy.metricsText(), 'stacks_proxy_node_healthy', { node });

test('requests spread across the healthy nodes (sequential and concurrent)', async () => {
  await withPool([500, 500, 500], async (nodes, proxy) => {
    for (let i = 0; i < 30; i++) assert.equal((await get(proxy, '/v2/pox')).status, 200);
    assert.deepEqual(
      nodes.map((n) => n.hits.length),
      [10, 10, 10],
    );
    const results = await Promise.all(Array.from({ length: 60 }, () => get(proxy, '/v2/pox')));
    assert.ok(results.every((r) => r.status === 200));
    for (const n of nodes) assert.ok(n.hits.length > 10, `${n.name} got ${n.hits.length - 10} of 60 concurrent requests`);
    const text = proxy.proxy.metricsText();
    const total = ['node0', 'node1', 'node2'].reduce((s, node) => s + (metric(text, 'stacks_proxy_upstream_requests_total', { node }) ?? 0), 0);
    assert.equal(total, 90);
  });
});

test('a node that goes down leaves the rotation by the next health poll and comes back when it recovers', async () => {
  await withPool(
    [700, 700, 700],
    async ([a, b, c], proxy) => {
      await b.stop();
      // No proxied traffic meanwhile: only the /v2/info poll can notice.
      await waitFor(() => healthy(proxy, 'node1') === 0, 5000, 'node1 out of rotation');
      for (let i = 0; i < 20; i++) assert.equal((await get(proxy, '/v2/pox')).status, 200);
      assert.equal(b.hits.length, 0);
      assert.equal(a.hits.length + c.hits.length, 20);
      assert.equal(metric(proxy.proxy.metricsText(), 'stacks_proxy_upstream_errors_total', { node: 'node1', kind: 'connect' }), undefined, 'never tried');

      await b.restart();
      await waitFor(() => healthy(proxy, 'node1') === 1, 5000, 'node1 back in rotation');
      for (let i = 0; i < 30; i++) assert.equal((await get(proxy, '/v2/pox')).status, 200);
      assert.ok(b.hits.length >= 5, `node1 got ${b.hits.length} of 30`);
    },
    { healthIntervalMs: 100 },
  );
});

test('a node lagging more than maxTipLag blocks behind the best tip leaves the rotation until it catches up', async () => {
  await withPool(
    [1000, 990, 985],
    async ([, atLimit, lagging], proxy) => {
      // 990 is exactly 10 behind: still in. 985 is 15 behind: out.
      assert.equal(healthy(proxy, 'node1'), 1);
      assert.equal(healthy(proxy, 'node2'), 0);
      for (let i = 0; i < 20; i++) await get(proxy, '/v2/pox');
      assert.equal(lagging.hits.length, 0);
      assert.ok(atLimit.hits.length > 0);
      lagging.tip = 999;
      await waitFor(() => healthy(proxy, 'node2') === 1, 5000, 'node2 back in rotation');
      for (let i = 0; i < 30; i++) await get(proxy, '/v2/pox');
      assert.ok(lagging.hits.length > 0);
      assert.equal(metric(proxy.proxy.metricsText(), 'stacks_proxy_node_tip_height', { node: 'node2' }), 999);
    },
    { healthIntervalMs: 100, maxTipLag: 10 },
  );
});

// The retry tests poll rarely so that the rotation still lists the stopped node: only the request finds out.
const NO_POLLS = { healthIntervalMs: 60_000 };

test('a GET whose node refuses the connection is retried on another node (and the node leaves the rotation)', async () => {
  await withPool(
    [5, 5],
    async ([down, up], proxy) => {
      await down.stop();
      for (let i = 0; i < 4; i++) assert.deepEqual(await get(proxy, '/v2/pox'), { status: 200, node: up.name });
      const text = proxy.proxy.metricsText();
      assert.equal(metric(text, 'stacks_proxy_upstream_errors_total', { node: 'node0', kind: 'connect' }), 1);
      assert.equal(metric(text, 'stacks_proxy_node_healthy', { node: 'node0' }), 0);
      assert.equal(up.hits.length, 4);
    },
    NO_POLLS,
  );
});

test('a GET whose node drops the connection before answering is retried on another node', async () => {
  await withPool(
    [5, 5],
    async ([flaky, good], proxy) => {
      flaky.handler = (_hit, req) => void req.socket.destroy();
      for (let i = 0; i < 4; i++) assert.deepEqual(await get(proxy, '/v2/pox'), { status: 200, node: good.name });
      assert.ok(flaky.hits.length >= 1);
    },
    NO_POLLS,
  );
});

const txid = 'ef'.repeat(32);
const accept = (n: FakeNode): void => {
  n.handler = (_hit, _req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(txid));
  };
};
const broadcast = async (proxy: TestProxy): Promise<{ status: number; body: string }> => {
  const r = await request(proxy.url + '/v2/transactions', { method: 'POST', body: randomBytes(150), headers: { 'content-type': 'application/octet-stream' } });
  return { status: r.statusCode, body: await r.body.text() };
};

test('a broadcast whose node refuses the connection is retried on another node', async () => {
  const accepted: string[] = [];
  await withPool(
    [5, 5],
    async ([down, up], proxy) => {
      accept(up);
      await down.stop();
      for (let i = 0; i < 4; i++) assert.deepEqual(await broadcast(proxy), { status: 200, body: JSON.stringify(txid) });
      assert.equal(up.hits.filter((h) => h.url === '/v2/transactions').length, 4);
      assert.equal(metric(proxy.proxy.metricsText(), 'stacks_proxy_upstream_errors_total', { node: 'node0', kind: 'connect' }), 1);
      await waitFor(() => accepted.length === 4, 2000, 'hook calls');
    },
    NO_POLLS,
    { onBroadcastAccepted: (id) => void accepted.push(id) },
  );
});

test('a broadcast that reached its node is never retried, even if the node then fails', async () => {
  await withPool(
    [5, 5],
    async ([failing, good], proxy) => {
      // Reads the whole transaction, then drops the connection without answering.
      failing.handler = (_hit, req) => void req.socket.destroy();
      accept(good);
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await broadcast(proxy));
      const failed = results.filter((r) => r.status === 502);
      const ok = results.filter((r) => r.status === 200);
      assert.equal(failed.length + ok.length, 4);
      assert.ok(failed.length >= 1, 'the failing node got some broadcasts');
      // Every broadcast the failing node received came back as a 502; none was sent again to the good node.
      assert.equal(failing.hits.length, failed.length);
      assert.equal(good.hits.length, ok.length);
      for (const r of failed) assert.match(JSON.parse(r.body).message as string, /closed the connection/);
    },
    NO_POLLS,
  );
});
