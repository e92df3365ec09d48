// Documents as the workers pack them: compressed against the dictionaries (lmdb's framing), every
// member back in its place, absent optional members absent; events without their tx id; principal
// facts and list entries in their varint forms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventJson, packMempoolDoc, packTxDoc, readColdDoc, readMempoolDoc, readTxDoc, storedEvent, txIdOf, unpackTxDoc } from './codec.ts';
import { decompressValue } from './lz4.ts';
import { DOC_DICTIONARY } from './dictionaries.ts';
import { TX_FLAGS, type TxDoc } from './docs.ts';
import { factNonce, packFact, readFact } from './principal-fact.ts';
import { packEntry, readEntry } from './principal-list.ts';

const txId = `0x${'ab'.repeat(32)}`;
const transfer: TxDoc = {
  flags: 0,
  body: `"tx_id":"${txId}","nonce":5,"fee_rate":"180","sender_address":"SP000000000000000000002Q6VF78","sponsored":false,"post_condition_mode":"deny","post_conditions":[],"anchor_mode":"any","tx_index":4,"tx_status":"success"`,
  event_count: 1,
  sender_address: 'SP000000000000000000002Q6VF78',
  fee_rate: '180',
  microblock_hash: '',
  microblock_sequence: 2147483647,
  tx_index: 4,
};
const call: TxDoc = { ...transfer, flags: TX_FLAGS.OWN_PLACEMENT | TX_FLAGS.FULL_BODY, index_block_hash: `0x${'cd'.repeat(32)}`, block_height: 9, call: { contract_id: 'SP2.c', function_name: 'f', args: [['0x00', 'none', 'optional']] } };

const cold = { events: [[0, 'stx_asset', '"asset":{"amount":"5"}'] as [number, string, string]], raw: Uint8Array.from([0, 1, 2, 0x80, 0xff]) };

test('a tx document reads back member for member, compressed against the dictionary, its events and raw bytes apart', () => {
  for (const doc of [transfer, call, { ...call, cold }]) {
    const packed = packTxDoc(doc);
    // (A small cold part is stored as it is, as lmdb stores a value below its compression threshold.)
    assert.equal(packed.hot[0], 254, "lmdb's compressed-value marker");
    assert.ok(packed.hot.length < doc.body.length, `compressed: ${packed.hot.length} bytes for a ${doc.body.length}-character body`);
    const plain = decompressValue(packed.hot, DOC_DICTIONARY);
    assert.equal(plain[0] & 0xf0, 0x90, 'a MessagePack array inside');
    const { cold: c, ...rest } = doc;
    assert.deepEqual(readTxDoc(plain), rest, 'the hot part: without its events and raw bytes');
    const coldPart = c ?? { events: [], raw: new Uint8Array(0) };
    const asBytes = (p: { events: unknown; raw: Uint8Array }) => ({ events: p.events, raw: [...p.raw] });
    assert.deepEqual(asBytes(readColdDoc(decompressValue(packed.cold, DOC_DICTIONARY))), asBytes(coldPart), 'the cold part: only they');
    const { cold: back, ...hot } = unpackTxDoc(packed);
    assert.deepEqual(hot, rest);
    assert.deepEqual(asBytes(back!), asBytes(coldPart));
  }
  const back = unpackTxDoc(packTxDoc(transfer));
  assert.equal('call' in back || 'index_block_hash' in back, false);
  assert.equal(txIdOf(back), txId);
});

test('events are stored without their tx id and rendered with it, byte for byte', () => {
  const json = `{"event_index":3,"event_type":"stx_asset","tx_id":"${txId}","asset":{"asset_event_type":"transfer","sender":"SP1","recipient":"SP2","amount":"5"}}`;
  const stored = storedEvent(3, 'stx_asset', txId, json)!;
  assert.deepEqual(stored, [3, 'stx_asset', '"asset":{"asset_event_type":"transfer","sender":"SP1","recipient":"SP2","amount":"5"}']);
  assert.equal(eventJson(txId, stored), json);
  assert.equal(storedEvent(3, 'stx_asset', `0x${'00'.repeat(32)}`, json), undefined, 'another tx id is not taken out');
  const raw = Uint8Array.from({ length: 180 }, (_, i) => i % 7);
  const back = unpackTxDoc(packTxDoc({ ...transfer, cold: { events: [stored], raw } })).cold!;
  assert.deepEqual(back.events, [stored]);
  assert.deepEqual([...back.raw], [...raw]);
});

test('a mempool document keeps its raw bytes', () => {
  const raw = Uint8Array.from([0, 1, 2, 3, 250, 255]);
  const doc = readMempoolDoc(decompressValue(packMempoolDoc({ body: '"tx_id":"0x01","nonce":1', raw }), DOC_DICTIONARY));
  assert.equal(doc.body, '"tx_id":"0x01","nonce":1');
  assert.deepEqual([...doc.raw], [...raw]);
  assert.equal('call' in doc, false);
});

test('a principal fact and a list entry read back, large amounts and nonce 0 included', () => {
  const fact = { roles: 9, stx_sent: (2n ** 100n).toString(), stx_received: '0', events: [[0, 1], [21, 255]] as Array<[number, number]>, nonce: 0 };
  assert.deepEqual(readFact(packFact(fact), 9), fact);
  const sponsor = { roles: 2, stx_sent: '7', stx_received: '8', events: [], sponsor_nonce: 3 };
  assert.deepEqual(readFact(packFact(sponsor), 2), sponsor);
  // The nonce alone, past amounts of any length.
  assert.equal(factNonce(packFact(fact)), 0);
  assert.equal(factNonce(packFact({ ...fact, stx_received: (2n ** 64n + 5n).toString(), nonce: 300 })), 300);
  assert.equal(factNonce(packFact(sponsor)), undefined);
  const entry = { pid: 123_456 * 2 ** 20 + 17, roles: 9, gaps: [0, 3, 0, 70_000], block_height: 800_000, microblock_sequence: 2147483647, tx_index: 300, fact: packFact(fact) };
  assert.deepEqual(readEntry(packEntry(entry)), entry);
  assert.equal(readEntry(packEntry({ ...entry, microblock_sequence: 0 })).microblock_sequence, 0);
});
