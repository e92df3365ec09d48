// Malformed deliveries are answered 400/413, kept in the event log marked rejected, and change
// nothing; a valid entry that cannot be stored stops processing there without losing anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { startService, waitForProcessing, SHARED } from '../testing/service.ts';
import { readRecords } from './event-log/reader.ts';
import { RecordStatus } from './event-log/record.ts';
import { eventLogDir } from './pipeline.ts';
import { parseTsvLine } from './tsv/copy-text.ts';
import { storeThatRefuses, withStore } from '../testing/store.ts';

const post = (url: string, body: string | Buffer) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : new Uint8Array(body) });

/** A structurally complete single-sig testnet tx whose payload type byte is 0x09 (none such). */
function unknownPayloadTx(): string {
  const header = Buffer.concat([
    Buffer.from([0x80]), Buffer.from('80000000', 'hex'), // version, chain id
    Buffer.from([0x04, 0x00]), Buffer.alloc(20, 7), // standard auth, P2PKH, signer
    Buffer.alloc(8), Buffer.alloc(8), Buffer.from([0x00]), Buffer.alloc(65), // nonce, fee, key encoding, signature
    Buffer.from([0x03, 0x02]), Buffer.alloc(4), // anchor mode any, deny, no post conditions
    Buffer.from([0x09]), Buffer.alloc(16), // payload type 9 and some bytes
  ]);
  return `0x${header.toString('hex')}`;
}

function fixtureRows(name: string) {
  return readFileSync(join(SHARED, 'fixtures', name), 'utf8').split('\n').map(parseTsvLine).filter((r) => r !== null);
}

/** A real mempool tx from a fixture, as hex. */
function realMempoolTx(): string {
  const row = fixtureRows('fuzzed-transactions-1.tsv').find((r) => r.path === '/new_mempool_tx')!;
  return (JSON.parse(row.payload) as string[])[0];
}

test('malformed bodies get 400 (oversized 413), are logged as rejected, and change no state', async () => {
  const svc = await startService({ env: { STACKS_CORE_EVENT_BODY_LIMIT: String(1024 * 1024) } });
  try {
    const tx = realMempoolTx();
    const unknownPayload = unknownPayloadTx();
    const cases: Array<[string, string, string | Buffer, number, RegExp]> = [
      ['non-JSON', '/new_block', '{"block_hash": ', 400, /not valid JSON/],
      ['wrong field types', '/new_block', JSON.stringify({ ...JSON.parse(fixtureRows('fuzzed-transactions-1.tsv').find((r) => r.path === '/new_block')!.payload), block_height: 'twelve' }), 400, /block_height must be integer/],
      ['truncated hex', '/new_mempool_tx', JSON.stringify([tx.slice(0, tx.length - 10)]), 400, /truncated/],
      ['unknown payload id', '/new_mempool_tx', JSON.stringify([unknownPayload]), 400, /payload type 0x09/],
      ['oversized body', '/new_block', Buffer.alloc(2 * 1024 * 1024, 0x20), 413, /over the limit/],
    ];
    for (const [name, path, body, status, message] of cases) {
      const res = await post(svc.eventUrl + path, body);
      const json = (await res.json()) as { error: string; message: string };
      assert.equal(res.status, status, `${name}: status`);
      assert.match(json.message, message, `${name}: message`);
      assert.equal(typeof json.error, 'string', `${name}: error field`);
    }
    // Still healthy: a real log goes through afterwards and nothing of the rejects shows.
    for (const r of fixtureRows('fuzzed-transactions-1.tsv')) assert.equal((await post(svc.eventUrl + r.path, r.payload)).status, 200);
    const status = await waitForProcessing(svc.apiUrl);
    assert.equal((status.chain_tip as { block_height: number }).block_height, 12);
    assert.equal((status.event_log as { error?: unknown }).error, undefined);
  } finally {
    await svc.stop();
  }
  const rejected = [];
  for await (const r of readRecords(eventLogDir(svc.dataDir))) if (r.status === RecordStatus.Rejected) rejected.push(r);
  assert.equal(rejected.length, 5, 'every malformed request is kept in the log');
  assert.deepEqual(rejected.map((r) => r.path), ['/new_block', '/new_block', '/new_mempool_tx', '/new_mempool_tx', '/new_block']);
  assert.equal(rejected[0].body.toString(), '{"block_hash": ');
  assert.match(rejected[4].note, /over the limit/);
});

test('an entry whose rows cannot be stored stops processing there; the observer keeps accepting; a fixed restart resumes', async () => {
  const rows = fixtureRows('fuzzed-transactions-1.tsv');
  const half = Math.floor(rows.length / 2);
  // The store starts refusing tenure-change txs (as a full disk or a schema mismatch would refuse
  // writes): valid entries that cannot be stored.
  const dataDir = await storeThatRefuses(rows.slice(0, half), `ALTER TABLE txs ADD CONSTRAINT refuse_tenure_changes CHECK type_id != 'tenure_change'`);
  const second = await startService({ dataDir });
  let stoppedAt = 0;
  try {
    for (const r of rows.slice(half)) assert.equal((await post(second.eventUrl + r.path, r.payload)).status, 200, 'the observer keeps accepting');
    const status = await waitForProcessing(second.apiUrl);
    const log = status.event_log as { received_id: number; processed_id: number; error?: { logId: number; message: string } };
    assert.ok(log.error, 'the failure is reported in /extended');
    assert.match(log.error.message, /refuse_tenure_changes/);
    assert.equal(status.status, 'processing_stopped');
    assert.equal(log.received_id, rows.length);
    assert.ok(log.processed_id < log.error.logId, 'the failed entry is not marked processed');
    stoppedAt = log.processed_id;
  } finally {
    await second.stop();
  }
  // A fixed store (the "fixed build"): processing resumes from the checkpoint and completes.
  await withStore(dataDir, (store) => store.client.command({ query: `ALTER TABLE txs DROP CONSTRAINT refuse_tenure_changes` }));
  const third = await startService({ dataDir });
  try {
    const status = await waitForProcessing(third.apiUrl);
    const log = status.event_log as { processed_id: number; error?: unknown };
    assert.equal(log.error, undefined);
    assert.ok(stoppedAt < rows.length);
    assert.equal(log.processed_id, rows.length, 'nothing was skipped');
    assert.equal((status.chain_tip as { block_height: number }).block_height, 12);
    const blocks = (await (await fetch(`${third.apiUrl}/extended/v1/block?limit=30`)).json()) as { total: number; results: Array<{ txs: string[] }> };
    assert.equal(blocks.total, 12);
    // 16 txs in canonical blocks, as the reference's block list for this log shows.
    assert.equal(blocks.results.reduce((n, b) => n + b.txs.length, 0), 16, 'every tx of the log is there once');
  } finally {
    await third.stop();
  }
});

test('unknown paths are stored raw and answered 200; large bodies stream through', async () => {
  const svc = await startService();
  try {
    const odd = await post(`${svc.eventUrl}/some_future_path`, 'not even json');
    assert.equal(odd.status, 200);
    // A boot-block-sized body (~100 MB): one mint receipt with 450k genesis balances.
    const block = JSON.parse(fixtureRows('fuzzed-transactions-1.tsv').find((r) => r.path === '/new_block')!.payload) as Record<string, unknown>;
    const tx = JSON.parse(fixtureRows('fuzzed-transactions-1.tsv').find((r) => r.path === '/new_block' && (JSON.parse(r.payload) as { transactions: unknown[] }).transactions.length > 0)!.payload) as { transactions: Array<{ txid: string }> };
    const txid = tx.transactions[0].txid;
    const events = Array.from({ length: 450_000 }, (_, i) => ({
      txid, event_index: i, committed: true, type: 'stx_mint_event',
      stx_mint_event: { recipient: 'ST000000000000000000002AMW42H', amount: String(1000 + i) },
      padding: 'x'.repeat(120),
    }));
    const big = Buffer.from(JSON.stringify({ ...block, transactions: tx.transactions.slice(0, 1), events }));
    assert.ok(big.length > 90 * 1024 * 1024, `body is ${big.length} bytes`);
    const res = await post(`${svc.eventUrl}/new_block`, big);
    assert.equal(res.status, 200, await res.text());
    const status = await waitForProcessing(svc.apiUrl, 300_000);
    assert.equal((status.event_log as { error?: unknown }).error, undefined);
    assert.equal((status.event_log as { processed_id: number }).processed_id, 2);
  } finally {
    await svc.stop();
  }
  const stored = [];
  for await (const r of readRecords(eventLogDir(svc.dataDir), { withBody: false })) stored.push([r.path, r.status]);
  assert.deepEqual(stored, [['/some_future_path', RecordStatus.Accepted], ['/new_block', RecordStatus.Accepted]]);
});

/** A real /stackerdb_chunks body (the only source of them). */
function stackerDbBody(): Record<string, unknown> {
  const rows = readFileSync(join(SHARED, 'fixtures', 'stackerdb-sample-events.tsv.gz'));
  const line = gunzipSync(rows).toString('utf8').split('\n').find((l) => l.includes('\t/stackerdb_chunks\t'))!;
  return JSON.parse(parseTsvLine(line)!.payload) as Record<string, unknown>;
}

test('bodies a store cannot hold are refused with 400 before the ack; none gets a 500; processing never stops on them', { timeout: 300_000 }, async () => {
  const svc = await startService();
  try {
    const block = fixtureRows('fuzzed-transactions-1.tsv').find((r) => r.path === '/new_block' && r.payload.includes('"block_height":3'))!.payload;
    const attachment = {
      attachment_index: 1,
      index_block_hash: `0x${'a'.repeat(64)}`,
      block_height: 5,
      content_hash: `0x${'b'.repeat(40)}`,
      contract_id: 'SP000000000000000000002Q6VF78.bns',
      metadata: '0x0c',
      tx_id: `0x${'c'.repeat(64)}`,
      content: '0x',
    };
    const chunks = stackerDbBody();
    const issuer = (chunks.contract_id as { issuer: unknown[] }).issuer;
    const withIssuer = (v: unknown) => JSON.stringify({ ...chunks, contract_id: { ...(chunks.contract_id as object), issuer: v } });
    const cases: Array<[string, string, string]> = [
      // finding 2: stored as garbage after UInt32, stopping processing for good
      ['/attachments/new', JSON.stringify([attachment]).replace('"block_height":5', '"block_height":1e41'), 'block_height'],
      // finding 3: wrapped to height 0 while fork choice used 2^32
      ['/new_block', block.replace(/"block_height":\s*3\b/, '"block_height":4294967296'), 'block_height'],
      // finding 5: TypeErrors and stack overflows answered 500, which a node retries forever
      ['/stackerdb_chunks', JSON.stringify({ ...chunks, contract_id: { name: 'miners' } }), 'contract_id'],
      ['/stackerdb_chunks', withIssuer(undefined), 'contract_id'],
      ['/stackerdb_chunks', withIssuer('SP000'), 'contract_id'],
      ['/stackerdb_chunks', withIssuer([issuer[0]]), 'contract_id'],
      ['/stackerdb_chunks', withIssuer([issuer[0], 'zz']), 'contract_id'],
      ['/stackerdb_chunks', withIssuer([999, issuer[1]]), 'contract_id'],
      ['/stackerdb_chunks', withIssuer([issuer[0], [1, 2, 3]]), 'contract_id'],
      ['/stackerdb_chunks', JSON.stringify({ ...chunks, contract_id: 7 }), 'contract_id'],
      ['/proposal_response', `{"result":"Ok","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, 'deeper than'],
      ['/proposal_response', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`, 'deeper than'],
      // Rows longer than the engine parses (10 MB per row), found by the fuzz: refused, never stored.
      ['/proposal_response', JSON.stringify({ result: 'Ok', x: Array.from({ length: 2_000_000 }, (_, i) => i) }), 'more than the 8388608 the store takes'],
      ['/new_mempool_tx', JSON.stringify([`0x${'00'.repeat(3 * 1024 * 1024)}`]), 'must NOT have more than 4194306 characters'],
      ['/drop_mempool_tx', JSON.stringify({ dropped_txids: [], reason: 'x'.repeat(5000) }), 'must NOT have more than 1024 characters'],
    ];
    const wrong: string[] = [];
    for (const [path, body, what] of cases) {
      const res = await post(svc.eventUrl + path, body);
      const json = (await res.json()) as { message?: string };
      if (res.status !== 400 || !json.message?.includes(what)) wrong.push(`${path} (${what}): ${res.status} ${json.message ?? ''}`.slice(0, 200));
    }
    assert.deepEqual(wrong, []);
    // Real events after them are processed as usual.
    for (const r of fixtureRows('fuzzed-transactions-1.tsv')) assert.equal((await post(svc.eventUrl + r.path, r.payload)).status, 200);
    const status = await waitForProcessing(svc.apiUrl);
    assert.equal((status.event_log as { error?: unknown }).error, undefined);
    assert.equal(status.status, 'ready');
    assert.equal((status.chain_tip as { block_height: number }).block_height, 12);
  } finally {
    await svc.stop();
  }
});
