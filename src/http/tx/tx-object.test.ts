// Edge cases of the tx-object builder on rows, without a store: which placement is served, how
// anchored / microblock / unconfirmed placements render, and mempool statuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatMempoolTx, formatMinedTx, mempoolTxStatus } from '../../render/tx.ts';
import { pickCanonical, type MempoolRow, type PlacedTx } from './queries.ts';
import { roundHalfEven } from './mempool-routes.ts';
import { percentileCont } from './mempool.ts';

// A testnet STX transfer (fuzzed-transactions-1) and a mainnet pox stack-stx call (mocknet).
const TRANSFER_ID = '0x516c07d6398d0ba082d1da053784da5bbfce2252102e486ba94bab9c693c4b0f';
const TRANSFER_RAW =
  '0x808000000004007ce8e31e9120f4b3cb7bea0fed9de8556cadceb90000000000000006000000000000012c0001aae8c984d3294b3d20b9d0e181f76f6a2732e373f1dbb4e9b58e3b27bf5ce3124ffce0d606dae6ed07b7b1826a91ea53b4e103c7baaf4af0afd92249a39c47da03020000000000051a79596b2995032f42672a1610356aa2fe09886a6d00000000000003e800000000000000000000000000000000000000000000000000000000000000000000';
const CALL_ID = '0x61233be68853960bb30812a6692fa5713892a57dfa578d4009523c9e6b99fc7c';
const CALL_RAW =
  '0x000000000104001779d78a9a68bc61911f1be6176960f164f3db480000000000000000000000000000010400012d9ff53f6e1593a9dbf76e68c7c7101e40e67a9d28b5102d560bad23d2122e771a06021ccaaa7cfabe2ef05ebf810dae2792a6c0d02ba00d74733149fde0a2a90302000000000216000000000000000000000000000000000000000003706f7809737461636b2d737478000000040100000000000000000000003ad11640fc0c000000020968617368627974657302000000149844a4c3fc6cfdd8a780d38a951a98fe357d8cf10776657273696f6e02000000010101000000000000000000000000000a29d30100000000000000000000000000000001';

function placed(over: Partial<PlacedTx> = {}): PlacedTx {
  return {
    tx_id: TRANSFER_ID,
    index_block_hash: '0xaa',
    microblock_hash: '',
    block_hash: '0xbb',
    block_height: 5,
    burn_block_time: 1700000000,
    burn_block_height: 100,
    parent_burn_block_time: 1699999000,
    block_time: 0,
    parent_block_hash: '0xcc',
    parent_index_block_hash: '0xdd',
    microblock_sequence: 2147483647,
    microblock_parent_hash: '',
    tx_index: 2,
    status: 'success',
    raw_tx: TRANSFER_RAW,
    raw_result: '0x0703',
    type_id: 'token_transfer',
    sender_address: 'ST1YEHRRYJ4GF9CYBFFN0ZVCXX1APSBEEQ5KEDN7M',
    sponsor_address: '',
    nonce: 6,
    fee_rate: '300',
    contract_id: '',
    function_name: '',
    event_count: 1,
    event_tables: 1,
    execution_cost_read_count: 1,
    execution_cost_read_length: 2,
    execution_cost_runtime: 3,
    execution_cost_write_count: 4,
    execution_cost_write_length: 5,
    vm_error: null,
    burnchain_op: null,
    canonical: true,
    microblock_canonical: true,
    unanchored: false,
    ...over,
  };
}

function mempoolRow(over: Partial<MempoolRow> = {}): MempoolRow {
  return {
    tx_id: TRANSFER_ID,
    raw_tx: TRANSFER_RAW,
    receipt_time: 1700000100,
    sender_address: 'ST1YEHRRYJ4GF9CYBFFN0ZVCXX1APSBEEQ5KEDN7M',
    sponsor_address: '',
    nonce: 6,
    fee_rate: '300',
    type_id: 'token_transfer',
    contract_id: '',
    function_name: '',
    log_id: 7,
    status: 'pending',
    reason: '',
    replaced_by: '',
    ...over,
  };
}

test('an anchored tx shows the reference placeholders for "no microblock"', () => {
  const tx = formatMinedTx(placed());
  assert.equal(tx.microblock_hash, '0x');
  assert.equal(tx.microblock_sequence, 2147483647);
  assert.equal(tx.microblock_canonical, true);
  assert.equal(tx.is_unanchored, false);
  assert.equal(tx.canonical, true);
  assert.equal(tx.tx_status, 'success');
  assert.deepEqual(tx.tx_result, { hex: '0x0703', repr: '(ok true)' });
  // Epoch 2.x: no header time, the burn block's stands in.
  assert.equal(tx.block_time, 1700000000);
  assert.equal(tx.block_time_iso, '2023-11-14T22:13:20.000Z');
  assert.equal(tx.tx_type, 'token_transfer');
  assert.deepEqual((tx.token_transfer as { recipient_address: string }).recipient_address, 'ST1WNJTS9JM1JYGK758B10DBAMBZ0K23ADP392SBV');
  assert.deepEqual(tx.events, []);
  assert.equal(tx.vm_error, null);
});

test('a confirmed microblock tx shows its microblock; an unconfirmed one has no block yet', () => {
  const confirmed = formatMinedTx(placed({ microblock_hash: '0xmb', microblock_sequence: 3 }));
  assert.equal(confirmed.microblock_hash, '0xmb');
  assert.equal(confirmed.microblock_sequence, 3);
  assert.equal(confirmed.block_hash, '0xbb');

  const streamed = formatMinedTx(placed({ index_block_hash: '', block_hash: '', microblock_hash: '0xmb', microblock_sequence: 0, block_height: 6, unanchored: true }), {}, { parentBlockHash: '0xparent' });
  assert.equal(streamed.is_unanchored, true);
  assert.equal(streamed.block_hash, '0x');
  assert.equal(streamed.block_height, 6);
  assert.equal(streamed.burn_block_time, -1);
  assert.equal(streamed.burn_block_height, -1);
  assert.equal(streamed.burn_block_time_iso, '');
  assert.equal(streamed.parent_block_hash, '0xparent');
});

test('the served placement: canonical and accepted; unconfirmed only when asked; confirmed first', () => {
  const orphaned = placed({ index_block_hash: '0x01', canonical: false });
  const microOrphaned = placed({ index_block_hash: '0x02', microblock_hash: '0xm1', microblock_canonical: false });
  assert.equal(pickCanonical([orphaned, microOrphaned], true), undefined);

  const streamed = placed({ index_block_hash: '', microblock_hash: '0xm2', unanchored: true, block_height: 9 });
  assert.equal(pickCanonical([orphaned, streamed], false), undefined);
  assert.equal(pickCanonical([orphaned, streamed], true), streamed);

  const confirmed = placed({ index_block_hash: '0x03', microblock_hash: '0xm2', block_height: 9 });
  assert.equal(pickCanonical([streamed, confirmed, orphaned], true), confirmed);
});

test('a non-canonical placement renders with canonical false', () => {
  const tx = formatMinedTx(placed({ canonical: false, microblock_hash: '0xm', microblock_sequence: 1, microblock_canonical: false }));
  assert.equal(tx.canonical, false);
  assert.equal(tx.microblock_canonical, false);
});

test('mempool txs: pending (also when mined only in an unconfirmed microblock) and dropped', () => {
  const pending = formatMempoolTx(mempoolRow());
  assert.equal(pending.tx_status, 'pending');
  assert.equal(pending.replaced_by_tx_id, null);
  assert.equal(pending.receipt_time, 1700000100);
  assert.equal(pending.receipt_time_iso, '2023-11-14T22:15:00.000Z');
  assert.equal(pending.tx_type, 'token_transfer');
  assert.equal(pending.nonce, 6);
  assert.equal('block_hash' in pending, false);

  assert.equal(formatMempoolTx(mempoolRow({ status: 'confirmed' })).tx_status, 'pending');

  const replaced = formatMempoolTx(mempoolRow({ status: 'dropped', reason: 'ReplaceByFee', replaced_by: '0xnew' }));
  assert.equal(replaced.tx_status, 'dropped_replace_by_fee');
  assert.equal(replaced.replaced_by_tx_id, '0xnew');
  for (const [reason, status] of [
    ['ReplaceAcrossFork', 'dropped_replace_across_fork'],
    ['TooExpensive', 'dropped_too_expensive'],
    ['StaleGarbageCollect', 'dropped_stale_garbage_collect'],
    ['Problematic', 'dropped_problematic'],
  ]) {
    assert.equal(mempoolTxStatus({ status: 'dropped', reason }), status);
  }
});

test('contract calls: ABI names and types when known, value types and no signature otherwise', () => {
  const abi = JSON.stringify({
    functions: [
      {
        name: 'stack-stx',
        access: 'public',
        args: [
          { name: 'amount-ustx', type: 'uint128' },
          { name: 'pox-addr', type: { tuple: [{ name: 'hashbytes', type: { buffer: { length: 20 } } }, { name: 'version', type: { buffer: { length: 1 } } }] } },
          { name: 'start-burn-ht', type: 'uint128' },
          { name: 'lock-period', type: 'uint128' },
        ],
        outputs: { type: 'bool' },
      },
    ],
  });
  const row = placed({ tx_id: CALL_ID, raw_tx: CALL_RAW, type_id: 'contract_call', contract_id: 'SP000000000000000000002Q6VF78.pox', function_name: 'stack-stx' });
  const withAbi = formatMinedTx(row, { abi }).contract_call as { function_signature: string; function_args: Array<{ name: string; type: string; repr: string }> };
  assert.match(withAbi.function_signature, /^\(define-public \(stack-stx \(amount-ustx uint\)/);
  assert.equal(withAbi.function_args[0].name, 'amount-ustx');
  assert.equal(withAbi.function_args[1].type, '(tuple (hashbytes (buff 20)) (version (buff 1)))');

  const bare = formatMinedTx(row).contract_call as { function_signature: string; function_args: Array<{ name: string; type: string }> };
  assert.equal(bare.function_signature, '');
  assert.equal(bare.function_args[0].name, '');
  assert.equal(bare.function_args[0].type, 'uint');

  const noArgs = formatMinedTx(row, { abi, excludeFunctionArgs: true }).contract_call as Record<string, unknown>;
  assert.equal('function_args' in noArgs, false);
});

test('fee percentiles and rounding follow PostgreSQL (percentile_cont, round half to even)', () => {
  assert.equal(percentileCont([1000, 1001, 1002], 0.25), 1000.5);
  assert.equal(percentileCont([1000, 1001, 1002], 0.95), 1001.9);
  assert.equal(percentileCont([], 0.5), null);
  assert.equal(roundHalfEven(1000.5), 1000);
  assert.equal(roundHalfEven(1001.5), 1002);
  assert.equal(roundHalfEven(1001.9), 1002);
});

test('a Bitcoin-originated tx (raw_tx 0x00) is shown from its events', () => {
  const ev = (kind: 'stx_asset' | 'stx_lock', a: string, b: string, c: string, d: string) =>
    ({ kind, tx_id: '0x01', index_block_hash: '0xaa', microblock_hash: '', event_index: 0, block_height: 5, tx_index: 0, a, b, c, d, e: '' }) as const;
  const transfer = formatMinedTx(placed({ tx_id: '0x01', raw_tx: '0x00' }), {}, { events: [ev('stx_asset', 'transfer', 'SP1SENDER', 'SP1RECIPIENT', '42')] });
  assert.equal(transfer.tx_type, 'token_transfer');
  assert.equal(transfer.sender_address, 'SP1SENDER');
  assert.equal(transfer.fee_rate, '0');
  assert.equal(transfer.post_condition_mode, 'allow');
  assert.deepEqual(transfer.token_transfer, { recipient_address: 'SP1RECIPIENT', amount: '42', memo: '0x' });

  const lock = formatMinedTx(placed({ tx_id: '0x01', raw_tx: '0x00' }), {}, { events: [ev('stx_lock', '1000', '700000', 'SP2STACKER', 'pox')] });
  assert.equal(lock.tx_type, 'contract_call');
  assert.equal((lock.contract_call as { contract_id: string }).contract_id, 'SP000000000000000000002Q6VF78.pox');
  assert.equal(lock.sender_address, 'SP2STACKER');
});
