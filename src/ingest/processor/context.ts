// What the apply-* steps share while one batch is built: the chain state, the batch, the current
// log entry, and lookups of facts stored by earlier runs (for reorgs of blocks not in memory).
import type { Store } from '../../storage/client.ts';
import type { Batch } from './batch.ts';
import type { BlockState, ChainState } from './chain-state.ts';
import type { BalanceDelta, TxRef } from '../../workers/decoded.ts';
import type { DecodePool } from '../../workers/pool.ts';

export interface ApplyContext {
  store: Store;
  state: ChainState;
  batch: Batch;
  logId: number;
  /** Receipt time of the log entry, ms. */
  receivedAt: number;
  /** The entry's raw body, and the pool, for the rare re-decode (block 1 over a boot block). */
  body: Buffer;
  pool: DecodePool;
  logDir: string;
  /** Resolves once the rows of earlier batches are stored (a batch's insert runs while the next
   *  one is built); awaited before reading facts back from the store. */
  earlierBatchesStored: () => Promise<void>;
  /** Mempool status changes gathered during this entry: tx_id -> new status. */
  mempool: Map<string, MempoolChange>;
}

/** A mempool status change; a tx coming back from an orphaned block carries its TxRef, a newly
 *  announced one the principals it names. */
export interface MempoolChange {
  status: 'pending' | 'dropped' | 'confirmed';
  reason?: string;
  replaced_by?: string;
  tx?: TxRef;
  principals?: string[];
}

export async function blockTxs(ctx: ApplyContext, b: BlockState): Promise<TxRef[]> {
  if (b.txs) return b.txs;
  await ctx.earlierBatchesStored();
  const rs = await ctx.store.client.query({
    query: `SELECT tx_id, microblock_hash, microblock_sequence, microblock_parent_hash, tx_index, raw_tx, sender_address, sponsor_address,
                   toString(nonce) AS nonce, toString(fee_rate) AS fee_rate, type_id, contract_id, function_name
            FROM txs WHERE tx_id IN (SELECT arrayJoin(tx_ids) FROM blocks WHERE index_block_hash = {h:String})
              AND index_block_hash = {h:String} LIMIT 1 BY tx_id`,
    query_params: { h: b.index_block_hash },
    format: 'JSONEachRow',
  });
  b.txs = (await rs.json<TxRef>()).map((t) => ({ ...t, microblock_sequence: Number(t.microblock_sequence), tx_index: Number(t.tx_index) }));
  return b.txs;
}

export async function blockDeltas(ctx: ApplyContext, b: BlockState): Promise<BalanceDelta[]> {
  if (b.deltas) return b.deltas;
  await ctx.earlierBatchesStored();
  const rs = await ctx.store.client.query({
    query: `SELECT principal, asset, toString(balance) AS balance, toString(total_sent) AS total_sent, toString(total_received) AS total_received,
                   toString(total_fees_sent) AS total_fees_sent, toString(total_miner_rewards) AS total_miner_rewards
            FROM balance_changes WHERE index_block_hash = {h:String} LIMIT 1 BY principal, asset`,
    query_params: { h: b.index_block_hash },
    format: 'JSONEachRow',
  });
  b.deltas = await rs.json<BalanceDelta>();
  return b.deltas;
}

/** Records a mempool status change; the last change within an entry wins. */
export function setMempool(ctx: ApplyContext, tx_id: string, status: MempoolChange['status'], extra: Omit<MempoolChange, 'status'> = {}): void {
  ctx.mempool.set(tx_id, { status, ...extra });
}
