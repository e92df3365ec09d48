// The API's own node requests go through the proxy's pool: spread over the nodes, past one that
// refuses connections (which then leaves the rotation), and a broadcast a node took reaches the
// onBroadcastAccepted hook.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { getGlobalDispatcher } from 'undici';
import { startNode, startProxy } from './test-support.ts';
import { NodeUnavailable } from './node-client.ts';

after(() => getGlobalDispatcher().destroy());

const TXID = 'ab'.repeat(32);

test('node requests fail over to a live node; broadcasts reach the hook; no node is a NodeUnavailable', async () => {
  const live = await startNode('live', {
    handler: (hit, _req, res) => {
      if (hit.url !== '/v2/transactions') return false;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(TXID));
    },
  });
  const dead = await startNode('dead');
  const accepted: Array<[string, string]> = [];
  // A long health interval: the dead node is still in the rotation when it is asked.
  const proxy = await startProxy([dead, live], { healthIntervalMs: 60_000 }, { onBroadcastAccepted: (txid, raw) => void accepted.push([txid, raw.toString('hex')]) });
  try {
    await dead.stop();
    for (let i = 0; i < 4; i++) {
      const answer = await proxy.proxy.node.request({ method: 'GET', path: '/v2/pox' });
      assert.equal(answer.status, 200);
      assert.equal((JSON.parse(answer.body.toString()) as { node: string }).node, 'live');
    }
    assert.equal(proxy.proxy.node.bestTip(), 1000);
    const sent = await proxy.proxy.node.broadcast(Buffer.from('0001', 'hex'));
    assert.equal(sent.status, 200);
    assert.deepEqual(accepted, [[`0x${TXID}`, '0001']]);
    assert.equal(live.hits.at(-1)?.headers['content-type'], 'application/octet-stream');
    await live.stop();
    await assert.rejects(proxy.proxy.node.request({ method: 'GET', path: '/v2/pox' }), NodeUnavailable);
  } finally {
    await proxy.close();
  }
});
