// Tx documents and principal facts are packed as arrays: every member comes back in its place,
// absent optional members stay absent, and values stored as maps before read as they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pack, packPrincipalFact, packTxDoc, unpackPrincipalFact, unpackTxDoc } from './codec.ts';
import type { PrincipalTxFact, TxDoc } from './docs.ts';

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

const received: PrincipalTxFact = {
  roles: 2,
  stx_sent: '0',
  stx_received: '500',
  events: [
    { event_index: 0, kind: 'stx', asset_event_type: 'transfer', asset_identifier: '', sender: 'SP1', recipient: 'SP3', amount: '500', value: '' },
    { event_index: 3, kind: 'nft', asset_event_type: 'mint', asset_identifier: 'SP2.c::n', sender: '', recipient: 'SP3', amount: '', value: '0x0100' },
  ],
  block_height: 7,
  microblock_sequence: 2147483647,
  tx_index: 4,
  tx_id: '0x01',
};
const sent: PrincipalTxFact = { ...received, roles: 1, events: [], nonce: 0, sponsor_nonce: 9 };

test('a principal fact reads back member for member, packed as an array', () => {
  for (const fact of [received, sent]) {
    const bytes = packPrincipalFact(fact);
    assert.equal(bytes[0] & 0xf0, 0x90, 'a MessagePack array');
    assert.deepEqual(unpackPrincipalFact(bytes), fact);
  }
  const back = unpackPrincipalFact(packPrincipalFact(received));
  assert.equal('nonce' in back || 'sponsor_nonce' in back, false);
  assert.equal(unpackPrincipalFact(packPrincipalFact(sent)).nonce, 0, 'nonce 0 is kept');
});

test('a principal fact stored as a map reads as it was', () => {
  assert.deepEqual(unpackPrincipalFact(pack(sent)), sent);
});
