// The journal's stored form: every kind of message reads back as it was written, its tx ids and
// principals resolved from the references the entry keeps (placements of this entry and of
// others, principal ids, the entry's own table of other tx ids).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeMessages, encodeMessages, messageCount } from './codec.ts';
import type { MessageRef } from './messages.ts';

const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const principals = ['SP000000000000000000002Q6VF78', 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE.send-many-memo'];
const txOfPid = (pid: number) => id(1_000_000 + pid);

test('every kind of message reads back, by reference', () => {
  const logId = 77;
  const own = logId * 2 ** 20 + 3;
  const other = 12 * 2 ** 20 + 9;
  const list: MessageRef[] = [
    { t: 'reorg', left: [[id(1), 10]], joined: [[id(2), 10], ['', 11]] },
    { t: 'block', h: id(3), n: 11 },
    { t: 'tx', tx: txOfPid(own), pid: own },
    { t: 'tx', tx: txOfPid(other), pid: other },
    { t: 'address-tx', p: principals[1], tx: txOfPid(own), pid: own },
    { t: 'address-tx', p: principals[0], tx: txOfPid(other), pid: other, principalId: 0 },
    { t: 'address-balance', p: principals[0] },
    { t: 'mempool', tx: id(4) },
    { t: 'tx', tx: id(4) },
    { t: 'microblock', h: id(5) },
    { t: 'nft', scope: 'asset', tx: id(6), i: 2, a: 'SP2.c::n', v: '0x0100' },
    { t: 'nft', scope: 'all', tx: txOfPid(own), pid: own, i: 0, a: 'SP2.c::n', v: '0x0101' },
    { t: 'nft', scope: 'asset', tx: txOfPid(own), pid: own, i: 0, a: 'SP2.c::n', v: '0x0101' },
    { t: 'nft', scope: 'collection', tx: txOfPid(own), pid: own, i: 0, a: 'SP2.c::n', v: '0x0101' },
  ];
  const bytes = encodeMessages(logId, list, { idOf: (p) => principals.indexOf(p) });
  assert.equal(messageCount(bytes), list.length);
  const back = decodeMessages(logId, bytes, { principalOf: (n) => principals[n], txIdOf: txOfPid });
    // Read back without the references (placements, ids) the strings were stored by.
  const strip = ({ pid: _, principalId: __, ...rest }: Record<string, unknown>) => rest;
  assert.deepEqual(back, list.map((m) => strip(m as unknown as Record<string, unknown>)));
  assert.ok(bytes.length < 320, `${bytes.length} bytes: hashes as bytes, other references a few each`);
});
