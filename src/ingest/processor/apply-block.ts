// /new_block: store the block's facts and decide canonical status the way the reference API does:
// the longest chain by Stacks height wins, ties go to the first seen. A block taller than the tip
// whose parent is off the canonical chain restores that fork and orphans the blocks it replaces;
// orphaned blocks' txs go back to the mempool, their balance changes are undone.
import type { DecodedEvent } from '../../workers/decoded.ts';
import type { BlockState } from './chain-state.ts';
import { blockDeltas, blockTxs, blockTxsWithRaw, contributionOf, setMempool, type ApplyContext } from './context.ts';
import { addBalanceRows, blockCanonicalRow } from './overlay.ts';
import { readRecord } from '../event-log/reader.ts';
import { acceptMicroblockStream, orphanAcceptedMicroblocks, recordBlockMicroblocks } from './apply-microblocks.ts';
import { settleMined } from './mempool-nonces.ts';
import { addRunningTotals } from './running-totals.ts';
import { addAnalyticsRows } from './analytics.ts';
import { NO_ANALYTICS } from '../../workers/analytics-changes.ts';
import { addHolderRows } from './holders.ts';
import { connectHeldChildren, heldBlocks, mustHold } from './held-blocks.ts';
import { ensureHeight } from './chain-load.ts';

type BlockEvent = Extract<DecodedEvent, { kind: 'block' }>;

export async function applyBlock(ctx: ApplyContext, decoded: BlockEvent): Promise<void> {
  const { state, batch, logId } = ctx;
  const meta = decoded.block;
  // A late block (or a fork far below the tip): its parent's height and its own back in memory.
  await ensureHeight(ctx, meta.block_height - 1);
  // Duplicate delivery (node restart, re-announced boot block, repeated request): nothing changes.
  if (state.blocks.has(meta.index_block_hash)) return;
  const ev = meta.block_height === 1 ? await withBootBlock(ctx, decoded) : decoded;
  const parent = state.blocks.get(meta.parent_index_block_hash);
  // A block hanging off nothing stored is held, never canonical (held-blocks.ts).
  const held = mustHold(state, meta);
  // The boot block (height 0) is never canonical: the reference shows its receipts as block 1's.
  const canonical = !held && meta.block_height > 0 && (!state.tip || meta.block_height > state.tip.block_height);
  if (canonical && parent && !parent.canonical && parent.block_height > 0) await restoreFork(ctx, parent);

  batch.addFacts(ev.facts);
  batch.serving.docs(logId, ev.served, canonical);
  const block: BlockState = {
    index_block_hash: meta.index_block_hash,
    block_hash: meta.block_hash,
    block_height: meta.block_height,
    parent_index_block_hash: meta.parent_index_block_hash,
    canonical,
    burn_block_time: meta.burn_block_time,
    burn_block_height: meta.burn_block_height,
    burn_block_hash: meta.burn_block_hash,
    parent_microblock_hash: meta.parent_microblock_hash,
    parent_microblock_sequence: meta.parent_microblock_sequence,
    log_id: logId,
    txs: ev.txs,
    deltas: ev.deltas,
    served: ev.served,
    supply: ev.supply ?? '0',
    counts: ev.counts ?? [],
    block_time: meta.block_time,
    analytics: ev.analytics ?? NO_ANALYTICS,
  };
  state.addBlock(block);
  if (held) heldBlocks(state).add(block.index_block_hash);
  batch.addRows('block_canonical', [blockCanonicalRow(block, logId)]);
  recordBlockMicroblocks(ctx, block, ev.microblocks, {
    block_height: meta.block_height - 1,
    block_hash: meta.parent_block_hash,
    burn_block_hash: meta.parent_burn_block_hash,
    burn_block_height: meta.parent_burn_block_height,
    burn_block_time: meta.parent_burn_block_time,
  });
  if (canonical) {
    state.rememberMined(ev.txs);
    addBalanceRows(batch, ev.deltas, 1);
    addHolderRows(batch, ev.deltas, ev.txs, 1);
    await addRunningTotals(ctx, block, 1);
    await addAnalyticsRows(ctx, block, 1);
    for (const tx of ev.txs) if (state.mempoolPending.has(tx.tx_id) || ctx.mempool.has(tx.tx_id)) setMempool(ctx, tx.tx_id, 'confirmed');
    settleMined(ctx, ev.txs);
    await acceptMicroblockStream(ctx, block);
    if (batch.serving.enabled) batch.serving.canonical(block.index_block_hash, block.block_height, true, await contributionOf(ctx, block));
  }
  if (held) return;
  // Held blocks that hang off this one are connected now; the tallest takes over if it outgrows the tip.
  const tallest = connectHeldChildren(state, block);
  if (tallest && state.tip && tallest.block_height > state.tip.block_height) await restoreFork(ctx, tallest);
}

/** Block 1 over a stored boot block with receipts: decoded again with those receipts included. */
async function withBootBlock(ctx: ApplyContext, ev: BlockEvent): Promise<BlockEvent> {
  const boot = (ctx.state.byHeight.get(0) ?? []).map((h) => ctx.state.blocks.get(h)!)[0];
  if (!boot) return ev;
  const bootRecord = await readRecord(ctx.logDir, boot.log_id);
  if (!bootRecord) return ev;
  const out = await ctx.pool.decode('/new_block', ctx.body, bootRecord.body);
  if (!out.ok || out.event.kind !== 'block') throw new Error(`re-decoding block 1 with the boot block failed: ${out.ok ? out.event.kind : out.reason}`);
  return out.event;
}

/** The block's parent, read back from the store if memory no longer holds its height. */
async function parentOf(ctx: ApplyContext, b: BlockState): Promise<BlockState | undefined> {
  await ensureHeight(ctx, b.block_height - 1);
  return ctx.state.blocks.get(b.parent_index_block_hash);
}

/** Makes `tip` and its non-canonical ancestors canonical, orphaning what stood at their heights. */
async function restoreFork(ctx: ApplyContext, tip: BlockState): Promise<void> {
  const { state, batch, logId } = ctx;
  const restore: BlockState[] = [];
  for (let b: BlockState | undefined = tip; b && !b.canonical; b = await parentOf(ctx, b)) restore.push(b);
  const orphaned: BlockState[] = [];
  for (const b of restore) {
    for (const hash of state.byHeight.get(b.block_height) ?? []) {
      const other = state.blocks.get(hash)!;
      if (other !== b && other.canonical) orphaned.push(other);
    }
  }
  // Heights above the restored fork that the old chain had: orphaned too (the new block is taller).
  for (let h = tip.block_height + 1; state.tip && h <= state.tip.block_height; h++) {
    const other = state.canonicalAt(h);
    if (other) orphaned.push(other);
  }
  if (orphaned.length > 0) batch.reorged = true;
  // Newest first: the serving store's lists lose their newest entries first.
  orphaned.sort((a, b) => b.block_height - a.block_height);
  for (const o of orphaned) {
    // Before its microblocks lose their status: what it contributed while canonical.
    if (batch.serving.enabled) batch.serving.canonical(o.index_block_hash, o.block_height, false, await contributionOf(ctx, o));
    o.canonical = false;
    batch.addRows('block_canonical', [blockCanonicalRow(o, logId)]);
    addBalanceRows(batch, await blockDeltas(ctx, o), -1);
    const txs = await blockTxsWithRaw(ctx, o);
    addHolderRows(batch, await blockDeltas(ctx, o), txs, -1);
    await addRunningTotals(ctx, o, -1);
    await addAnalyticsRows(ctx, o, -1);
    state.forgetMinedNonces(txs);
    for (const tx of txs) if (tx.raw_tx !== '0x00') setMempool(ctx, tx.tx_id, 'pending', { tx });
    orphanAcceptedMicroblocks(ctx, o);
  }
  for (const b of restore.reverse()) {
    b.canonical = true;
    batch.addRows('block_canonical', [blockCanonicalRow(b, logId)]);
    addBalanceRows(batch, await blockDeltas(ctx, b), 1);
    const txs = await blockTxs(ctx, b);
    addHolderRows(batch, await blockDeltas(ctx, b), txs, 1);
    await addRunningTotals(ctx, b, 1);
    await addAnalyticsRows(ctx, b, 1);
    for (const tx of txs) {
      if (state.mempoolPending.has(tx.tx_id) || ctx.mempool.has(tx.tx_id)) setMempool(ctx, tx.tx_id, 'confirmed');
    }
    state.rememberMined(txs);
    settleMined(ctx, txs);
    await acceptMicroblockStream(ctx, b);
    if (batch.serving.enabled) batch.serving.canonical(b.index_block_hash, b.block_height, true, await contributionOf(ctx, b));
  }
  state.tip = restore.at(-1) ?? state.tip;
}
