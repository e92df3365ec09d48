// /new_mempool_tx and /drop_mempool_tx, and the mempool status changes gathered while an entry
// was applied (confirmations, orphaned txs coming back).
import type { DecodedEvent } from '../../workers/decoded.ts';
import type { Store } from '../../storage/client.ts';
import { setMempool, type ApplyContext } from './context.ts';
import { mempoolPrincipalsOf, mempoolTxRow } from './overlay.ts';
import { mempoolDoc } from '../../workers/serving/served-rows.ts';
import { pendingEntryOfRaw, type PendingTx } from '../../serving/pending-entry.ts';
import { settleAnnounced, type NonceInfo } from './mempool-nonces.ts';
import type { ServingChanges } from '../../serving/changes.ts';

type MempoolEvent = Extract<DecodedEvent, { kind: 'mempool' }>;
type DropEvent = Extract<DecodedEvent, { kind: 'drop_mempool' }>;

/** What a pending tx competes with for its nonce. */
export const nonceInfoOf = (e: PendingTx, receipt: number): NonceInfo => ({
  sender: e.sender_address,
  sponsor: e.sponsor_address,
  sponsored: e.sponsored,
  nonce: e.nonce,
  fee: BigInt(e.fee_rate),
  receipt,
});

export function applyMempoolTxs(ctx: ApplyContext, ev: MempoolEvent): void {
  // Announced again while pending, or already mined (recently, or with its nonce): nothing changes.
  const freshness = ev.txs.map(
    (t, i) => !ctx.state.mempoolPending.has(t.tx_id) && !ctx.state.minedRecently.has(t.tx_id) && ctx.minedNonce(ev.entries[i].sender_address, ev.entries[i].nonce) !== t.tx_id,
  );
  const isFresh = (_t: unknown, i: number) => freshness[i];
  const fresh = ev.txs.filter(isFresh);
  if (fresh.length === 0) return;
  const receipt = Math.floor(ctx.receivedAt / 1000);
  ctx.batch.addRows('mempool_txs', fresh.map((t) => mempoolTxRow(t, receipt, ctx.logId)));
  const announced = new Map<string, NonceInfo>();
  ev.txs.forEach((t, i) => {
    if (!isFresh(t, i)) return;
    ctx.batch.serving.mempoolDoc(t.tx_id, ev.docs[i] ?? null, t.raw_tx);
    setMempool(ctx, t.tx_id, 'pending', { principals: mempoolPrincipalsOf(t), entry: ev.entries[i], receipt });
    announced.set(t.tx_id, nonceInfoOf(ev.entries[i], receipt));
  });
  settleAnnounced(ctx, announced);
}

export function applyDrop(ctx: ApplyContext, ev: DropEvent): void {
  for (const id of ev.tx_ids) {
    if (ctx.state.mempoolPending.has(id) || ctx.mempool.get(id)?.status === 'pending') {
      setMempool(ctx, id, 'dropped', { reason: ev.reason, replaced_by: ev.new_tx_id });
    }
  }
}

/** Turns the entry's gathered status changes into rows and updates the in-memory pending set. */
export function flushMempoolChanges(ctx: ApplyContext): void {
  if (ctx.mempool.size === 0) return;
  const rows = [];
  const restored = [];
  for (const [tx_id, change] of ctx.mempool) {
    rows.push({ tx_id, status: change.status, reason: change.reason ?? '', replaced_by: change.replaced_by ?? '', version: ctx.logId });
    // The current pending set changes only on entering or leaving it (a re-announced tx keeps its row).
    const wasPending = ctx.state.mempoolPending.has(tx_id);
    if (change.status === 'pending' && !wasPending) {
      ctx.batch.pendingSet.enter(tx_id, ctx.logId, change.principals ?? (change.tx ? mempoolPrincipalsOf(change.tx) : []));
    } else if (change.status !== 'pending' && wasPending) ctx.batch.pendingSet.leave(tx_id, ctx.logId);
    let receipt = change.receipt;
    let entry = change.entry;
    if (change.status === 'pending') {
      if (change.tx && !ctx.state.mempoolPending.has(tx_id)) {
        restored.push(mempoolTxRow(change.tx, Math.floor(ctx.receivedAt / 1000), ctx.logId));
        // Back from an orphaned block or microblock (rare): decoded again here.
        receipt = Math.floor(ctx.receivedAt / 1000);
        entry = pendingEntryOfRaw(tx_id, change.tx.raw_tx, mempoolPrincipalsOf(change.tx));
        if (ctx.batch.serving.enabled) ctx.batch.serving.mempoolDoc(tx_id, mempoolDoc(tx_id, change.tx.raw_tx), change.tx.raw_tx);
      }
      ctx.state.mempoolPending.add(tx_id);
      if (entry) ctx.state.pendingNonces.add(tx_id, nonceInfoOf(entry, receipt ?? 0));
    } else {
      ctx.state.mempoolPending.delete(tx_id);
      ctx.state.pendingNonces.remove(tx_id);
    }
    ctx.batch.serving.mempool({ op: 'mempool', tx_id, status: change.status, reason: change.reason ?? '', replaced_by: change.replaced_by ?? '', logId: ctx.logId, receipt_time: receipt, entry });
  }
  ctx.batch.addRows('mempool_txs', restored);
  ctx.batch.addRows('mempool_status', rows);
  ctx.mempool.clear();
}

/** Renders the mempool documents the decode workers left out (decodeEntriesMovable) that the batch
 *  still needs: of txs it does not mine after announcing them. Rare: a task straddling two batches,
 *  or a block that lost its fork. */
export function completeMempoolDocs(changes: ServingChanges): void {
  let mined: Map<string, number> | undefined;
  changes.ops.forEach((op, i) => {
    if (op.op !== 'mempool-doc' || op.doc) return;
    mined ??= changes.minedAt();
    if ((mined.get(op.tx_id) ?? -1) < i) op.doc = mempoolDoc(op.tx_id, op.raw_tx);
  });
}

/** Removes the rows of txs that left the pending set from mempool_pending (only committed batches
 *  are stored by then). A failure is only logged: the rows stay hidden by FINAL until the next try. */
export async function compactPendingSet(store: Store): Promise<void> {
  try {
    await store.client.command({ query: 'OPTIMIZE TABLE mempool_pending FINAL CLEANUP' });
  } catch (e) {
    console.error('processor: compacting mempool_pending failed:', (e as Error).message);
  }
}
