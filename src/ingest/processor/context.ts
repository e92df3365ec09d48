// What the apply-* steps share while one batch is built: the chain state, the batch, the current
// log entry, and lookups of facts stored by earlier runs (for reorgs of blocks not in memory).
import type { Store } from '../../storage/client.ts';
import type { Batch } from './batch.ts';
import type { BlockState, ChainState } from './chain-state.ts';
import type { DecodedEvent, TxRef } from '../../workers/decoded.ts';
import type { DecodePool } from '../../workers/pool.ts';
import type { PendingTx } from '../../serving/pending-entry.ts';
import type { BlockContribution } from '../../serving/changes.ts';
import { blockContribution } from '../../serving/contribution.ts';
import { readRecord } from '../event-log/reader.ts';
import { NO_ANALYTICS } from '../../workers/analytics-changes.ts';
import type { BalanceDelta } from '../../serving/input.ts';

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

/**
 * A block decoded again from the event-log entry that brought it (block 1 with the boot block's
 * receipts, as when it was first stored). What a reorg undoes or redoes of a block (its txs,
 * balance changes, issued STX, event counts, analytics and serving contribution) is a pure function
 * of that payload, so none of it is stored for the purpose: memory keeps it for recent heights
 * (chain-state.ts) and an older block, which only a deep reorg reaches, is decoded once more.
 */
async function decodeBlockRecord(ctx: ApplyContext, b: BlockState, opts: { withRawTxs?: boolean } = {}): Promise<Extract<DecodedEvent, { kind: 'block' }>> {
  const rec = await readRecord(ctx.logDir, b.log_id);
  if (!rec) throw new Error(`event log entry ${b.log_id} of block ${b.index_block_hash} is missing`);
  const boot = b.block_height === 1 ? (ctx.state.byHeight.get(0) ?? []).map((h) => ctx.state.blocks.get(h)!)[0] : undefined;
  const bootRecord = boot ? await readRecord(ctx.logDir, boot.log_id) : undefined;
  const out = await ctx.pool.decode('/new_block', rec.body, bootRecord?.body, opts);
  if (!out.ok || out.event.kind !== 'block') throw new Error(`decoding block ${b.index_block_hash} again failed: ${out.ok ? out.event.kind : out.reason}`);
  return out.event;
}

async function decodeAgain(ctx: ApplyContext, b: BlockState): Promise<void> {
  const ev = await decodeBlockRecord(ctx, b);
  b.txs ??= ev.txs;
  b.deltas ??= ev.deltas;
  b.served ??= ev.served;
  b.supply ??= ev.supply ?? '0';
  b.counts ??= ev.counts ?? [];
  b.analytics ??= ev.analytics ?? NO_ANALYTICS;
}

/** The block's decoded content, from memory or decoded again. */
export async function decodedBlock(ctx: ApplyContext, b: BlockState): Promise<Required<Pick<BlockState, 'txs' | 'deltas' | 'served' | 'supply' | 'counts' | 'analytics'>>> {
  if (!b.txs || !b.deltas || !b.served || b.supply === undefined || !b.counts || !b.analytics) await decodeAgain(ctx, b);
  return { txs: b.txs!, deltas: b.deltas!, served: b.served!, supply: b.supply!, counts: b.counts!, analytics: b.analytics! };
}

/** The block's txs with their raw bytes, which a block's decoded txs do not carry (decodeBlock):
 *  for an orphaned block, whose txs go back to the mempool. Decoded again from the log. */
export async function blockTxsWithRaw(ctx: ApplyContext, b: BlockState): Promise<TxRef[]> {
  const txs = await blockTxs(ctx, b);
  if (txs.every((t) => t.raw_tx !== '')) return txs;
  const out = await decodeBlockRecord(ctx, b, { withRawTxs: true });
  return out.txs;
}

export const blockTxs = async (ctx: ApplyContext, b: BlockState): Promise<TxRef[]> => (await decodedBlock(ctx, b)).txs;
export const blockDeltas = async (ctx: ApplyContext, b: BlockState): Promise<BalanceDelta[]> => (await decodedBlock(ctx, b)).deltas;

/** Records a mempool status change; the last change within an entry wins. */
export function setMempool(ctx: ApplyContext, tx_id: string, status: MempoolChange['status'], extra: Omit<MempoolChange, 'status'> = {}): void {
  ctx.mempool.set(tx_id, { status, ...extra });
}

/** What the block adds to the serving store's lists and totals while canonical (its microblock
 *  txs count when it accepted their microblocks, as things stand now). */
export async function contributionOf(ctx: ApplyContext, b: BlockState): Promise<BlockContribution> {
  const { served, deltas } = await decodedBlock(ctx, b);
  return blockContribution(served, b.log_id, deltas, (mb) => ctx.state.accepted(b, mb));
}
