// Issue 4's broadcast path end to end through the whole service: a tx broadcast through our
// /v2/transactions to a (stand-in) node that accepts it shows in the mempool endpoints at once; one
// the node rejects passes the node's answer through and does not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { startService, SHARED } from '../../testing/service.ts';
import { parseTsvLine } from '../../ingest/tsv/copy-text.ts';
import { txIdOf } from '../../stacks/codec/transaction.ts';

function mempoolTxsOfFixture(): string[] {
  const rows = readFileSync(join(SHARED, 'fixtures', 'fuzzed-transactions-1.tsv'), 'utf8').split('\n').map(parseTsvLine);
  return rows.filter((r) => r?.path === '/new_mempool_tx').flatMap((r) => JSON.parse(r!.payload) as string[]);
}

async function standInNode(rejectTxid: string): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v2/info') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ stacks_tip_height: 12, burn_block_height: 244 }));
      } else if (req.url === '/v2/transactions' && req.method === 'POST') {
        const txid = txIdOf(Buffer.concat(chunks));
        res.setHeader('content-type', 'application/json');
        if (txid === rejectTxid) {
          res.statusCode = 400;
          res.end(JSON.stringify({ error: 'transaction rejected', reason: 'BadNonce', txid: txid.slice(2) }));
        } else res.end(JSON.stringify(txid.slice(2)));
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

test('a broadcast the node accepts is in the mempool endpoints at once; a rejected one passes through', async () => {
  const [accepted, rejected] = mempoolTxsOfFixture();
  const acceptedId = txIdOf(Buffer.from(accepted.slice(2), 'hex'));
  const rejectedId = txIdOf(Buffer.from(rejected.slice(2), 'hex'));
  const node = await standInNode(rejectedId);
  const port = (node.address() as { port: number }).port;
  const svc = await startService({ env: { STACKS_CORE_RPC_HOST: '127.0.0.1', STACKS_CORE_RPC_PORT: String(port), STACKS_CORE_PROXY_HEALTH_INTERVAL_MS: '200', STACKS_CHAIN_ID: '0x80000000' } });
  try {
    const broadcast = (hex: string) => fetch(`${svc.apiUrl}/v2/transactions`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from(hex.slice(2), 'hex') });
    // The proxy takes the node into rotation after its first health poll.
    let ok: Response | undefined;
    for (let i = 0; i < 50 && ok?.status !== 200; i++) {
      ok = await broadcast(accepted);
      if (ok.status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(ok!.status, 200);
    assert.equal(await ok!.json(), acceptedId.slice(2));

    const bad = await broadcast(rejected);
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), { error: 'transaction rejected', reason: 'BadNonce', txid: rejectedId.slice(2) });

    let listed: string[] = [];
    for (let i = 0; i < 100 && !listed.includes(acceptedId); i++) {
      const page = (await (await fetch(`${svc.apiUrl}/extended/v1/tx/mempool?limit=50`)).json()) as { results: Array<{ tx_id: string }> };
      listed = page.results.map((t) => t.tx_id);
      if (!listed.includes(acceptedId)) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(listed.includes(acceptedId), 'the accepted broadcast is listed in the mempool');
    assert.ok(!listed.includes(rejectedId), 'the rejected one is not');
    const tx = (await (await fetch(`${svc.apiUrl}/extended/v1/tx/${acceptedId}`)).json()) as { tx_status: string; tx_id: string };
    assert.equal(tx.tx_status, 'pending');
    assert.equal((await fetch(`${svc.apiUrl}/extended/v1/tx/${rejectedId}`)).status, 404);
  } finally {
    await svc.stop();
    node.close();
  }
});
