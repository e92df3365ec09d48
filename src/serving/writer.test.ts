// The serving writer's batch-level shortcuts on a real LMDB store: a tx announced and mined in one
// batch leaves what writing every step would have left (final mempool state, no mempool document,
// no pending entry), and the journal skips entries that would be pruned before the log's head.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDataDir } from '../testing/service.ts';
import { openServingStore } from './store.ts';
import { mempoolDocOf, rawTxOf, txRecordOf } from './reads.ts';
import { ServingWriter } from './writer.ts';
import { ServingChanges, type BlockContribution } from './changes.ts';
import type { PendingTx } from './pending-entry.ts';
import { packMempoolDoc } from './codec.ts';
import { DEFAULT_RETAIN, journalFrom } from './journal/journal.ts';

const txId = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const SENDER = 'SP000000000000000000002Q6VF78';

function pendingTx(id: string, nonce: number): PendingTx {
  return { tx_id: id, sender_address: SENDER, sponsor_address: '', sponsored: false, fee_rate: '180', type_id: 'token_transfer', contract_id: '', recipient: SENDER, amount: '1', nonce, sponsor_nonce: null, tx_size: 180, principals: [SENDER] };
}

/** Entry `logId` announces `id` (its mempool document and pending status). */
function announce(c: ServingChanges, logId: number, id: string, nonce: number): void {
  c.beginEntry(logId);
  c.mempoolDoc(id, packMempoolDoc({ body: `"tx_id":"${id}"`, raw: Uint8Array.from([0, 0]) }), '0x0000');
  c.mempool({ op: 'mempool', tx_id: id, status: 'pending', reason: '', replaced_by: '', logId, receipt_time: 1_700_000_000 + logId, entry: pendingTx(id, nonce) });
}

/** Entry `logId` mines `ids` in a canonical block (no documents: only what the mempool side reads). */
function mine(c: ServingChanges, logId: number, ids: string[]): void {
  c.beginEntry(logId);
  const contribution: BlockContribution = { txs: ids.map((id, i) => ({ pid: logId * 2 ** 20 + i, tx_id: id, block_height: logId, microblock_hash: '', microblock_sequence: 2147483647, tx_index: i, boot: false })), entries: [], deltas: [], nft: [] };
  c.canonical(`0x${logId.toString(16).padStart(64, 'b')}`, logId, true, contribution);
  for (const id of ids) c.mempool({ op: 'mempool', tx_id: id, status: 'confirmed', reason: '', replaced_by: '', logId });
}

test('a tx announced and mined in one batch: its final state only; one announced in an earlier batch loses its pending entry', async () => {
  const s = openServingStore(join(tempDataDir('writer-'), 'serving'));
  try {
    const w = new ServingWriter(s);
    const [early, both, pending] = [txId(1), txId(2), txId(3)];
    const first = new ServingChanges();
    announce(first, 1, early, 0);
    await w.write(first, 1);
    assert.ok(mempoolDocOf(s, early) && s.pending.get(early), 'announced in the first batch');

    const second = new ServingChanges();
    announce(second, 2, both, 1);
    announce(second, 3, pending, 2);
    mine(second, 4, [early, both]);
    await w.write(second, 4);
    for (const id of [early, both]) {
      assert.equal(mempoolDocOf(s, id), undefined, `${id}: no mempool document once mined`);
      assert.equal(s.pending.get(id), undefined, `${id}: not pending`);
      assert.equal(txRecordOf(s, id)?.mempool?.status, 'confirmed');
    }
    assert.equal(rawTxOf(s, both), undefined, 'its raw bytes come with its placement (not written here)');
    assert.deepEqual({ ...txRecordOf(s, both)?.mempool }, { status: 'confirmed', reason: '', replaced_by: '', receipt_time: 1_700_000_002, first_log_id: 2 });
    assert.equal(s.pending.get(pending)?.log_id, 3);
    assert.ok(mempoolDocOf(s, pending), 'still pending: its document stays');
  } finally {
    await s.close();
  }
});

test('the journal keeps only entries within its retention of the log head', async () => {
  const s = openServingStore(join(tempDataDir('writer-'), 'serving'));
  try {
    const w = new ServingWriter(s);
    const far = new ServingChanges();
    announce(far, 1, txId(1), 0);
    announce(far, 2, txId(2), 0);
    // The log's head is far ahead (an import): these entries would be pruned before it is reached.
    await w.write(far, 2, 3 + DEFAULT_RETAIN);
    assert.equal(s.journal.get(1), undefined);
    assert.equal(s.journal.get(2), undefined);
    assert.equal(journalFrom(s), 3, 'cursors older than the journal are refused, not silently skipped');

    const near = new ServingChanges();
    announce(near, 3, txId(3), 0);
    announce(near, 4, txId(4), 0);
    await w.write(near, 4, 4 + DEFAULT_RETAIN);
    assert.equal(s.journal.get(3), undefined, 'below the head minus the retention');
    assert.ok(s.journal.get(4), 'within it');
    assert.equal(journalFrom(s), 4);
  } finally {
    await s.close();
  }
});
