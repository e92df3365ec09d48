// decodeTransaction vs @stacks/transactions v7 deserializeTransaction, field by field, on every raw_tx
// of every fixture (blocks, microblocks, mempool, JSON blocks) and on synthetic txs of every shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deserializeTransaction } from '@stacks/transactions';
import { distinctRawTxs } from '../../testing/stacks/fixtures.ts';
import { compareTransaction } from '../../testing/stacks/stacks-compare.ts';
import { buildSyntheticTxs } from '../../testing/stacks/synthetic-txs.ts';
import { decodeTransaction } from './transaction.ts';
import { formatTransaction } from './api-format.ts';

test('every fixture raw_tx decodes like @stacks/transactions', () => {
  const txs = distinctRawTxs();
  assert.ok(txs.length >= 800, `expected the fixtures to hold 800+ distinct transactions, found ${txs.length}`);
  const failures: string[] = [];
  const byPath: Record<string, number> = {};
  const payloadTypes = new Set<string>();
  for (const t of txs) {
    const ours = decodeTransaction(t.rawTx);
    if (t.txid !== undefined && ours.txId !== t.txid) failures.push(`${t.fixture}: txid ${ours.txId} but the node says ${t.txid}`);
    const diffs = compareTransaction(ours, deserializeTransaction(t.rawTx.slice(2)));
    if (diffs.length) failures.push(`${t.fixture} ${t.path} ${ours.txId}: ${diffs.slice(0, 5).join('; ')}`);
    byPath[t.path] = (byPath[t.path] ?? 0) + 1;
    payloadTypes.add(ours.payload.type);
  }
  console.log(`@stacks/transactions comparison: ${txs.length} distinct fixture transactions (${JSON.stringify(byPath)}), payload types: ${[...payloadTypes].sort().join(', ')}`);
  assert.deepEqual(failures, []);
  for (const p of ['/new_block', '/new_microblocks', '/new_mempool_tx']) assert.ok(byPath[p] > 0, `no transactions from ${p}`);
});

test('synthetic transactions of every shape decode like @stacks/transactions', () => {
  const txs = buildSyntheticTxs();
  const failures: string[] = [];
  const seen = { hashModes: new Set<number>(), pcTypes: new Set<string>(), payloads: new Set<string>(), sponsored: 0 };
  for (const { name, hex } of txs) {
    const ours = decodeTransaction(hex);
    const diffs = compareTransaction(ours, deserializeTransaction(hex));
    if (diffs.length) failures.push(`${name}: ${diffs.join('; ')}`);
    seen.hashModes.add(ours.auth.origin.hashMode);
    if (ours.auth.sponsor) seen.hashModes.add(ours.auth.sponsor.hashMode);
    for (const pc of ours.postConditions) seen.pcTypes.add(pc.type);
    seen.payloads.add(ours.payload.type);
    if (ours.sponsored) seen.sponsored++;
    formatTransaction(ours); // every shape must also render
  }
  console.log(`@stacks/transactions comparison: ${txs.length} synthetic transactions`);
  assert.deepEqual(failures, []);
  assert.deepEqual([...seen.hashModes].sort(), [0, 1, 2, 3, 5, 7]);
  assert.deepEqual([...seen.pcTypes].sort(), ['fungible', 'non_fungible', 'pox', 'staking', 'stx']);
  assert.equal(seen.payloads.size, 8); // all but poison_microblock, which the fixtures cover
  assert.ok(seen.sponsored >= 6);
});

test('sponsored and multisig conveniences', () => {
  const tx = buildSyntheticTxs().find((t) => t.name === 'sponsored multisig/p2wpkh mainnet');
  assert.ok(tx);
  const d = decodeTransaction(tx.hex);
  assert.equal(d.sponsored, true);
  assert.equal(d.auth.origin.kind, 'multi_sig');
  assert.match(d.senderAddress, /^SM/); // multisig origin on mainnet
  assert.match(d.sponsorAddress!, /^SM/); // P2WPKH is not a 'P' address (stacks-core to_version_mainnet)
  assert.equal(d.nonce, 4n);
  assert.equal(d.sponsorNonce, 2n ** 64n - 1n);
  assert.equal(d.fee, 12345n);
  const api = formatTransaction(d);
  assert.equal(api.fee_rate, '12345');
  assert.equal(api.sponsor_nonce, Number(2n ** 64n - 1n));
  assert.equal(api.sponsor_address, d.sponsorAddress);
  const multi = d.auth.origin.kind === 'multi_sig' ? d.auth.origin : undefined;
  assert.equal(multi?.signaturesRequired, 2);
  assert.deepEqual(multi?.fields.map((f) => f.type), ['signature', 'signature', 'public_key']);
});

test('txId option skips hashing', () => {
  const [t] = distinctRawTxs();
  assert.equal(decodeTransaction(t.rawTx, { txId: '0xabc' }).txId, '0xabc');
  assert.equal(decodeTransaction(Buffer.from(t.rawTx.slice(2), 'hex')).txId, decodeTransaction(t.rawTx).txId);
});
