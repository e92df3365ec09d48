// Tx documents are packed as arrays: every member comes back in its place, a document without a
// contract call has no `call` member, and a document stored as a map before reads as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pack, packTxDoc, unpackTxDoc } from './codec.ts';
import type { TxDoc } from './docs.ts';

const transfer: TxDoc = {
  tx_id: '0x01',
  index_block_hash: '0x02',
  microblock_hash: '0x03',
  block_height: 7,
  microblock_sequence: 2,
  tx_index: 4,
  body: '"tx_id":"0x01","nonce":5',
  events: [[0, '{"event_index":0}']],
  event_count: 1,
  sender_address: 'SP1',
  fee_rate: '180',
  unanchored: true,
};
const call: TxDoc = { ...transfer, unanchored: false, call: { contract_id: 'SP2.c', function_name: 'f', args: [['0x00', 'none', 'optional']] } };

test('a tx document reads back member for member, packed as an array', () => {
  for (const doc of [transfer, call]) {
    const bytes = packTxDoc(doc);
    assert.equal(bytes[0] & 0xf0, 0x90, 'a MessagePack array');
    assert.deepEqual(unpackTxDoc(bytes), doc);
  }
  assert.equal('call' in unpackTxDoc(packTxDoc(transfer)), false);
});

test('a tx document stored as a map reads as it was', () => {
  assert.deepEqual(unpackTxDoc(pack(call)), call);
});
