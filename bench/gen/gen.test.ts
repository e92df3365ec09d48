// The generated chain, read back: determinism, wire format (our decoder and @stacks/transactions
// agree and the txids match), block ids and parent links, forks, tenures, microblocks, events,
// nonces, balances, mempool traffic and the Zipf skew of activity.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserializeTransaction } from '@stacks/transactions';
import { decodeTransaction, txIdOf } from '../../src/stacks/codec/transaction.ts';
import { compareTransaction } from '../../src/testing/stacks/stacks-compare.ts';
import { generateFile } from './generate.ts';
import { defaultOptions, type GenOptions } from './options.ts';
import { assetErrors, chainView, executionOrder, indexHashOf, nonceErrors, readLog, stxBalances, type Row } from './inspect.ts';
import { zipfShare } from './zipf.ts';

const N = 4000;
const dir = mkdtempSync(join(tmpdir(), 'stacks-gen-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function options(seed = 'test-1'): GenOptions {
  const o = defaultOptions(N, seed);
  // More of the rare shapes than the defaults give at this size.
  o.forkRate = 0.08;
  o.noSortitionRate = 0.2;
  o.tenureBlocks = 4;
  o.maturity = 10;
  o.mempool.rbfRate = 0.03;
  o.mempool.staleRate = 0.02;
  return o;
}

const file = join(dir, 'a.tsv');
const result = await generateFile(options(), file, false);
const rows = await readLog(file);
const view = chainView(rows);
const blocks = rows.filter((r) => r.path === '/new_block');
const canonicalTxs = view.canonical.flatMap((b) => executionOrder(b.body));
const hex = (s: string) => s.slice(2);

test('the same seed and size give a byte-identical file, gzipped too; another seed differs', async () => {
  const again = join(dir, 'again.tsv');
  await generateFile(options(), again, false);
  assert.ok(readFileSync(file).equals(readFileSync(again)), 'same seed, same bytes');
  const gz1 = join(dir, 'a1.tsv.gz');
  const gz2 = join(dir, 'a2.tsv.gz');
  await generateFile(options(), gz1, true);
  await generateFile(options(), gz2, true);
  assert.ok(readFileSync(gz1).equals(readFileSync(gz2)), 'same seed, same gzip bytes');
  assert.ok(gunzipSync(readFileSync(gz1)).equals(readFileSync(file)), 'the gzip holds the plain file');
  const other = join(dir, 'other.tsv');
  await generateFile(options('test-2'), other, false);
  assert.ok(!readFileSync(file).equals(readFileSync(other)), 'another seed, other bytes');
});

test('the canonical chain holds exactly --txs transactions; rows are numbered and timestamps ascend', () => {
  assert.equal(result.txs, N);
  assert.equal(canonicalTxs.length, N);
  rows.forEach((r, i) => assert.equal(r.id, i + 1));
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i].timestamp > rows[i - 1].timestamp, `timestamp of row ${rows[i].id}`);
});

test('every raw_tx decodes with our decoder and with @stacks/transactions, and its txid matches', () => {
  let n = 0;
  const check = (raw: string, txid: string | null, where: string) => {
    const ours = decodeTransaction(raw);
    const theirs = deserializeTransaction(hex(raw));
    assert.deepEqual(compareTransaction(ours, theirs), [], where);
    assert.equal(ours.txId, txIdOf(Buffer.from(hex(raw), 'hex')));
    assert.equal('0x' + theirs.txid(), ours.txId, where);
    if (txid !== null) assert.equal(txid, ours.txId, where);
    n++;
  };
  for (const r of rows) {
    if (r.path === '/new_block' || r.path === '/new_microblocks') for (const t of r.body.transactions) check(t.raw_tx, t.txid, `row ${r.id} tx ${t.tx_index}`);
    if (r.path === '/new_mempool_tx') for (const raw of r.body) check(raw, null, `row ${r.id}`);
  }
  assert.ok(n > 1.5 * N, `${n} txs checked`);
  // the auth and payload shapes the brief asks for are all there
  const shapes = new Set<string>();
  for (const t of canonicalTxs) {
    const d = decodeTransaction(t.raw_tx);
    shapes.add(d.payload.type);
    shapes.add(`hash mode ${d.auth.origin.hashMode}`);
    if (d.sponsored) shapes.add('sponsored');
    if (d.postConditions.length) shapes.add('post-conditions');
  }
  for (const s of ['token_transfer', 'versioned_smart_contract', 'contract_call', 'coinbase', 'tenure_change', 'nakamoto_coinbase', 'hash mode 0', 'hash mode 1', 'hash mode 5', 'sponsored', 'post-conditions']) {
    assert.ok(shapes.has(s), `has ${s}`);
  }
});

test('block ids, parent links and burn blocks are consistent', () => {
  const burnSeen = new Map<string, Row>();
  const seen = new Map<string, Row>();
  let prevBurn: Row | null = null;
  for (const r of rows) {
    if (r.path === '/new_burn_block') {
      if (prevBurn) {
        assert.equal(r.body.parent_burn_block_hash, prevBurn.body.burn_block_hash);
        assert.equal(r.body.burn_block_height, prevBurn.body.burn_block_height + 1);
      }
      burnSeen.set(r.body.burn_block_hash, r);
      prevBurn = r;
      continue;
    }
    if (r.path !== '/new_block') continue;
    const b = r.body;
    assert.equal(b.index_block_hash, indexHashOf(b.block_hash, b.consensus_hash), `index_block_hash of row ${r.id}`);
    assert.ok(burnSeen.has(b.burn_block_hash), `burn block of row ${r.id} announced first`);
    if (b.block_height === 0) {
      assert.equal(b.index_block_hash, '0x55c9861be5cff984a20ce6d99d4aa65941412889bdc665094136429b84f8c2ee');
      assert.equal(b.parent_index_block_hash, '0x' + 'ff'.repeat(32));
    } else {
      const parent = seen.get(b.parent_index_block_hash);
      assert.ok(parent, `parent of row ${r.id} came first`);
      assert.equal(parent.body.block_height, b.block_height - 1);
      assert.equal(parent.body.block_hash, b.parent_block_hash);
      assert.equal(parent.body.burn_block_hash, b.parent_burn_block_hash);
      assert.equal(parent.body.burn_block_height, b.parent_burn_block_height);
    }
    seen.set(b.index_block_hash, r);
  }
  view.canonical.forEach((b, h) => assert.equal(b.body.block_height, h));
});

test('forks are 1–3 deep, never taller than the chain they compete with, and abandoned', () => {
  assert.ok(view.forks.length > 0, 'some forks');
  const depths = new Set<number>();
  let tipHeight = -1;
  for (const r of blocks) {
    const b = view.blocks.get(r.body.index_block_hash)!;
    if (b.canonical) {
      tipHeight = Math.max(tipHeight, r.body.block_height);
      continue;
    }
    assert.ok(r.body.block_height <= tipHeight, `fork block at row ${r.id} does not outgrow the tip`);
    let base = b;
    while (!base.canonical) base = view.blocks.get(base.body.parent_index_block_hash)!;
    const depth = tipHeight - base.body.block_height;
    assert.ok(depth >= 1 && depth <= 3, `fork depth ${depth}`);
    depths.add(depth);
  }
  assert.ok(view.canonical.at(-1)!.row > Math.max(...view.forks.map((f) => f.row)), 'the main chain continues past the last fork');
  assert.ok(depths.size >= 2, `several fork depths: ${[...depths]}`);
});

test('epoch 2 blocks carry a coinbase, Nakamoto tenures a tenure change and coinbase, extends a tenure change', () => {
  let tenures = 0;
  let extends_ = 0;
  let epoch2 = 0;
  let prevTenure = 0;
  for (const b of view.canonical.slice(1)) {
    const first = decodeTransaction(b.body.transactions[0].raw_tx).payload;
    if (b.body.block_time === null) {
      epoch2++;
      assert.ok(first.type === 'coinbase' || first.type === 'coinbase_to_alt_recipient');
      assert.equal(b.body.tenure_height, b.body.block_height);
      assert.equal(b.body.signer_bitvec, null);
      prevTenure = b.body.tenure_height;
      continue;
    }
    assert.ok(b.body.signer_signature.length > 0 && /^[0-9a-f]+$/.test(b.body.signer_bitvec));
    assert.equal(b.body.signer_signature_hash, b.body.block_hash);
    if (first.type === 'tenure_change' && first.cause === 0) {
      tenures++;
      assert.equal(decodeTransaction(b.body.transactions[1].raw_tx).payload.type, 'nakamoto_coinbase');
      assert.equal(first.tenureConsensusHash, b.body.consensus_hash);
      assert.equal(b.body.tenure_height, prevTenure + 1);
    } else {
      if (first.type === 'tenure_change') extends_++;
      assert.equal(b.body.tenure_height, prevTenure);
    }
    prevTenure = b.body.tenure_height;
  }
  assert.ok(epoch2 > 5 && tenures > 10 && extends_ > 0, `${epoch2} epoch-2 blocks, ${tenures} tenures, ${extends_} extends`);
  assert.ok(rows.some((r) => r.path === '/new_block' && r.body.matured_miner_rewards.length > 0), 'matured miner rewards');
  assert.ok(rows.some((r) => r.path === '/new_block' && r.body.reward_set !== null), 'a reward set');
  assert.ok(rows.some((r) => r.path === '/new_burn_block' && r.body.reward_recipients.length > 0 && r.body.reward_slot_holders.length > 0), 'burn rewards');
});

test('microblock streams are announced, then confirmed by the next block with the same fields', () => {
  const streams = rows.filter((r) => r.path === '/new_microblocks');
  assert.ok(streams.length > 0, 'some microblocks');
  for (const r of streams) {
    const anchor = view.blocks.get(r.body.parent_index_block_hash)!;
    const next = view.canonical[anchor.body.block_height + 1].body;
    assert.equal(next.parent_index_block_hash, r.body.parent_index_block_hash);
    const confirmed = new Map(next.transactions.filter((t: any) => t.microblock_hash).map((t: any) => [t.txid, t])); // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const t of r.body.transactions) {
      const c = confirmed.get(t.txid) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
      assert.ok(c, `microblock tx ${t.txid} confirmed`);
      assert.equal(c.microblock_hash, t.microblock_hash);
      assert.equal(c.microblock_sequence, t.microblock_sequence);
      assert.equal(c.microblock_parent_hash, t.microblock_parent_hash);
      if (t.microblock_sequence === 0) assert.equal(t.microblock_parent_hash, anchor.body.block_hash);
    }
    const last = next.transactions.at(-1);
    assert.equal(next.parent_microblock, last.microblock_hash);
    assert.equal(next.parent_microblock_sequence, last.microblock_sequence);
  }
});

test('events: event_index counts over the block, failed txs have none, transfers match their tx', () => {
  for (const r of rows) {
    if (r.path !== '/new_block' && r.path !== '/new_microblocks') continue;
    const idx = r.body.events.map((e: any) => e.event_index).sort((a: number, b: number) => a - b); // eslint-disable-line @typescript-eslint/no-explicit-any
    idx.forEach((v: number, i: number) => assert.equal(v, i, `event_index in row ${r.id}`));
    const byTx = new Map<string, any[]>(); // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const e of r.body.events) byTx.set(e.txid, [...(byTx.get(e.txid) ?? []), e]);
    for (const t of r.body.transactions) {
      const evs = byTx.get(t.txid) ?? [];
      if (t.status !== 'success') {
        assert.equal(evs.length, 0);
        if (t.status === 'abort_by_response') assert.ok(t.raw_result.startsWith('0x08'), 'an (err …) result');
        else assert.ok(decodeTransaction(t.raw_tx).postConditions.length > 0, 'aborted by a post-condition it has');
        continue;
      }
      const p = decodeTransaction(t.raw_tx).payload;
      if (p.type === 'token_transfer' && p.amount > 0n) {
        assert.equal(evs.length, 1, 'one stx_transfer_event');
        const e = evs[0].stx_transfer_event;
        assert.equal(e.amount, String(p.amount));
        assert.equal(e.recipient, p.recipient);
        assert.equal('0x' + e.memo, p.memo);
      }
      if (p.type === 'versioned_smart_contract' || p.type === 'smart_contract') assert.ok(t.contract_interface?.functions.length > 0);
    }
  }
  const types = new Set(rows.filter((r) => r.path === '/new_block').flatMap((r) => r.body.events.map((e: any) => e.type))); // eslint-disable-line @typescript-eslint/no-explicit-any
  for (const t of ['stx_transfer_event', 'stx_mint_event', 'ft_transfer_event', 'ft_mint_event', 'ft_burn_event', 'nft_transfer_event', 'nft_mint_event', 'nft_burn_event', 'contract_event']) {
    assert.ok(types.has(t), `has ${t}`);
  }
  const outcomes = new Set(canonicalTxs.map((t) => `${t.status} ${t.raw_result.slice(0, 4)}`));
  for (const o of ['success 0x07', 'abort_by_response 0x08', 'abort_by_post_condition 0x07', 'abort_by_post_condition 0x08']) assert.ok(outcomes.has(o), `has ${o}`);
});

test('per-sender and per-sponsor nonces are consecutive on the canonical chain', () => {
  assert.deepEqual(nonceErrors(view).slice(0, 5), []);
});

test('no account spends µSTX, tokens or NFTs it does not have', () => {
  const { balances, overdrafts } = stxBalances(view);
  assert.deepEqual(overdrafts.slice(0, 5), []);
  assert.ok(balances.size > 100);
  assert.deepEqual(assetErrors(view).slice(0, 5), []);
});

test('mempool: txs are announced before they are mined; replacements and stale drops', () => {
  const announced = new Map<string, number>();
  const mined = new Map<string, number>();
  for (const r of rows) {
    if (r.path === '/new_mempool_tx') for (const raw of r.body) announced.set(decodeTransaction(raw).txId, r.id);
    if (r.path === '/new_block' && view.blocks.get(r.body.index_block_hash)!.canonical) for (const t of r.body.transactions) mined.set(t.txid, r.id);
  }
  let before = 0;
  let user = 0;
  for (const t of canonicalTxs) {
    const type = decodeTransaction(t.raw_tx).payload.type;
    if (type === 'coinbase' || type === 'nakamoto_coinbase' || type === 'tenure_change' || mined.get(t.txid) === blocks[0].id) continue;
    user++;
    const a = announced.get(t.txid);
    if (a !== undefined && a < mined.get(t.txid)!) before++;
  }
  assert.ok(before / user > 0.8, `${before} of ${user} mined user txs announced first`);
  const drops = rows.filter((r) => r.path === '/drop_mempool_tx');
  const rbf = drops.filter((d) => d.body.reason === 'ReplaceByFee');
  const stale = drops.filter((d) => d.body.reason === 'StaleGarbageCollect' || d.body.reason === 'TooExpensive');
  assert.ok(rbf.length > 0 && stale.length > 0, `${rbf.length} replacements, ${stale.length} stale drops`);
  for (const d of rbf) {
    const [old] = d.body.dropped_txids;
    assert.ok(announced.get(old)! < d.id, 'the replaced tx was announced first');
    assert.ok(mined.has(d.body.new_txid) && !mined.has(old), 'the replacement is mined, the original is not');
    const a = decodeTransaction(rows[announced.get(old)! - 1].body.find((raw: string) => decodeTransaction(raw).txId === old));
    const b = canonicalTxs.find((t) => t.txid === d.body.new_txid);
    const replacement = decodeTransaction(b.raw_tx);
    assert.equal(a.nonce, replacement.nonce);
    assert.ok(a.fee < replacement.fee, 'replaced by a higher fee');
  }
  for (const d of stale) for (const id of d.body.dropped_txids) assert.ok(announced.get(id)! < d.id && !mined.has(id));
});

test('activity is Zipf-skewed over principals', () => {
  const o = options();
  const counts = new Map<string, number>();
  for (const t of canonicalTxs) {
    const d = decodeTransaction(t.raw_tx);
    if (d.payload.type === 'token_transfer' || d.payload.type === 'contract_call' || d.payload.type.endsWith('smart_contract')) {
      counts.set(d.senderAddress, (counts.get(d.senderAddress) ?? 0) + 1);
    }
  }
  const sorted = [...counts.values()].sort((a, b) => b - a);
  const total = sorted.reduce((a, b) => a + b, 0);
  const expected = zipfShare(o.users, o.zipfExponent);
  const top = sorted[0] / total;
  assert.ok(top > 0.6 * expected && top < 1.6 * expected, `top sender share ${top.toFixed(3)}, Zipf(${o.users}, ${o.zipfExponent}) gives ${expected.toFixed(3)}`);
  const median = sorted[Math.floor(sorted.length / 2)];
  assert.ok(sorted[0] >= 20 * median, `top ${sorted[0]} vs median ${median}`);
});
