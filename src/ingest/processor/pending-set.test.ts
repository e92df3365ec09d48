import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PendingSetChanges } from './pending-set.ts';

test('a batch writes only the net change of the pending set', () => {
  const b = new PendingSetChanges();
  b.enter('0xa', 1, ['SP1']); // enters and leaves within the batch: no row
  b.leave('0xa', 2);
  b.leave('0xb', 3); // pending before the batch, leaves: a delete row
  b.enter('0xc', 4, ['SP2']); // enters and stays: an enter row
  b.leave('0xd', 5); // pending before, leaves and comes back (a reorg): an enter row, newest version
  b.enter('0xd', 6, ['SP3']);
  b.enter('0xe', 7, ['SP4']); // enters, leaves, enters again: the last enter
  b.leave('0xe', 8);
  b.enter('0xe', 9, ['SP4']);
  assert.deepEqual(b.takeRows(), [
    { tx_id: '0xb', principals: [], version: 3, is_deleted: 1 },
    { tx_id: '0xc', principals: ['SP2'], version: 4, is_deleted: 0 },
    { tx_id: '0xd', principals: ['SP3'], version: 6, is_deleted: 0 },
    { tx_id: '0xe', principals: ['SP4'], version: 9, is_deleted: 0 },
  ]);
  assert.deepEqual(b.takeRows(), [], 'rows are taken once');
});
