// What the apply-* steps share while one batch is built: the chain state, the batch, the current
// log entry, and lookups of facts stored by earlier runs (for reorgs of blocks not in memory).
import type { Store } from '../../storage/client.ts';
import type { Batch } from './batch.ts';
import type { BlockState, ChainState } from './chain-state.ts';
import type { BalanceDelta, TxRef } from '../../workers/decoded.ts';
import type { DecodePool } from '../../workers/pool.ts';
import type { ServedRows } from '../../workers/serving/served-rows.ts';
import type { PendingTx } from '../../serving/pending-entry.ts';
import type { BlockContribution } from '../../serving/changes.ts';
import { blockContribution } from '../../serving/contribution.ts';
import { readRecord } from '../event-log/reader.ts';

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
  /** The canonical tx that used an account's nonce, if one did (see mempool-nonces.ts). */
  minedNonce: (sender: string, nonce: number) => string | undefined;
}

/** A mempool status change; a tx coming back from an orphaned block carries its TxRef, a newly
 *  announced one the principals it names. */
export interface MempoolChange {
  status: 'pending' | 'dropped' | 'confirmed';
  reason?: string;
  replaced_by?: string;
  tx?: TxRef;
  principals?: string[];
  /** A newly announced tx: its pending-set entry and receipt time (s). */
  entry?: PendingTx;
  receipt?: number;
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

/** A block's serving documents and facts: kept for recent blocks, else decoded again from the log
 *  entry that brought it (block 1 with the boot block's receipts, as when it was first stored). */
export async function servedOf(ctx: ApplyContext, b: BlockState): Promise<ServedRows> {
  if (b.served) return b.served;
  const rec = await readRecord(ctx.logDir, b.log_id);
  if (!rec) throw new Error(`event log entry ${b.log_id} of block ${b.index_block_hash} is missing`);
  const boot = b.block_height === 1 ? (ctx.state.byHeight.get(0) ?? []).map((h) => ctx.state.blocks.get(h)!)[0] : undefined;
  const bootRecord = boot ? await readRecord(ctx.logDir, boot.log_id) : undefined;
  const out = await ctx.pool.decode('/new_block', rec.body, bootRecord?.body);
  if (!out.ok || out.event.kind !== 'block') throw new Error(`decoding block ${b.index_block_hash} again failed: ${out.ok ? out.event.kind : out.reason}`);
  b.served = out.event.served;
  return b.served;
}

/** What the block adds to the serving store's lists and totals while canonical (its microblock
 *  txs count when it accepted their microblocks, as things stand now). */
export async function contributionOf(ctx: ApplyContext, b: BlockState): Promise<BlockContribution> {
  const [served, deltas] = await Promise.all([servedOf(ctx, b), blockDeltas(ctx, b)]);
  return blockContribution(served, b.log_id, deltas, (mb) => ctx.state.accepted(b, mb));
}
