// Epoch 2.x microblocks, as the reference API treats them. A stream hangs off an anchor block
// (parent_index_block_hash); the next anchor block accepts the prefix ending at its
// parent_microblock, and every other microblock of that anchor is micro-orphaned (its txs return to
// the mempool). Streams are only taken on the canonical tip; a gap discards the payload.
import type { DecodedEvent, MicroblockMeta, TxRef } from '../../workers/decoded.ts';
import { packTxDoc, unpackTxDoc } from '../../serving/codec.ts';
import type { BlockState, MicroblockState } from './chain-state.ts';
import { setMempool, type ApplyContext } from './context.ts';
import { microblockCanonicalRow, microblockFactRow, type MicroblockParent } from './overlay.ts';

type MicroblocksEvent = Extract<DecodedEvent, { kind: 'microblocks' }>;

function newMicroblock(meta: MicroblockMeta, canonical: boolean, blockHeight: number): MicroblockState {
  return {
    microblock_hash: meta.microblock_hash,
    microblock_sequence: meta.microblock_sequence,
    microblock_parent_hash: meta.microblock_parent_hash,
    parent_index_block_hash: meta.parent_index_block_hash,
    canonical,
    index_block_hash: '',
    block_hash: '',
    block_height: blockHeight,
    burn_block_time: 0,
    burn_block_height: 0,
    burn_block_hash: '',
    tx_ids: meta.tx_ids,
  };
}

function write(ctx: ApplyContext, m: MicroblockState): void {
  ctx.batch.addRows('microblock_canonical', [microblockCanonicalRow(m, ctx.logId)]);
  ctx.batch.serving.microblock(m.microblock_hash, {
    canonical: m.canonical,
    index_block_hash: m.index_block_hash,
    parent_index_block_hash: m.parent_index_block_hash,
    microblock_sequence: m.microblock_sequence,
    block_height: m.block_height,
    tx_count: m.tx_ids.length,
  });
}

/** Microblocks a new block's txs came from that were never streamed to us: stored now, with the
 *  parent block as the confirming block's own payload describes it (it may not be stored). */
export function recordBlockMicroblocks(ctx: ApplyContext, block: BlockState, metas: MicroblockMeta[], parent: MicroblockParent): void {
  for (const meta of metas) {
    if (ctx.state.microblocks.has(meta.microblock_hash)) continue;
    const m = newMicroblock(meta, false, block.block_height);
    ctx.state.addMicroblock(m);
    ctx.batch.addRows('microblocks', [microblockFactRow(m, parent, ctx.logId)]);
    write(ctx, m);
  }
}

/** Accepts the stream `block` confirms and micro-orphans the rest of its parent's microblocks. */
export async function acceptMicroblockStream(ctx: ApplyContext, block: BlockState): Promise<void> {
  const { state } = ctx;
  const accepted = new Set<string>();
  let hash = block.parent_microblock_hash;
  while (hash) {
    const m = state.microblocks.get(hash);
    if (!m || m.parent_index_block_hash !== block.parent_index_block_hash || accepted.has(hash)) break;
    accepted.add(hash);
    if (m.microblock_sequence === 0) break;
    hash = m.microblock_parent_hash;
  }
  const inBlock = new Set((block.txs ?? []).map((t) => t.tx_id));
  for (const m of state.microblocksOf(block.parent_index_block_hash)) {
    if (accepted.has(m.microblock_hash)) {
      if (m.canonical && m.index_block_hash === block.index_block_hash) continue;
      // Confirmed before by another block: its txs' placement changes.
      if (m.canonical && m.index_block_hash) ctx.batch.reorged = true;
      Object.assign(m, {
        canonical: true,
        index_block_hash: block.index_block_hash,
        block_hash: block.block_hash,
        block_height: block.block_height,
        burn_block_time: block.burn_block_time,
        burn_block_height: block.burn_block_height,
        burn_block_hash: block.burn_block_hash,
      });
      write(ctx, m);
      // Accepted on the block's arrival, a stream we had received shows its own tx_index (as the
      // reference keeps the streamed rows then); a block made canonical later by a reorg does not.
      if (m.txs && block.log_id === ctx.logId) {
        const inBlock = new Set((block.txs ?? []).map((t) => t.tx_id));
        const streamed = m.txs.filter((t) => inBlock.has(t.tx_id));
        ctx.batch.addRows('streamed_tx_index', streamed.map((t) => ({ tx_id: t.tx_id, index_block_hash: block.index_block_hash, microblock_hash: m.microblock_hash, tx_index: t.tx_index })));
        showStreamedTxIndex(block, streamed);
      }
    } else if (m.canonical) {
      if (m.index_block_hash) ctx.batch.reorged = true;
      m.canonical = false;
      write(ctx, m);
      for (const tx of m.txs ?? []) if (!inBlock.has(tx.tx_id)) setMempool(ctx, tx.tx_id, 'pending', { tx });
    }
  }
}

/** The anchor block's documents of txs it confirmed from a stream we had received show the stream's
 *  tx_index (display only: keys and order keep the block's; see withStreamedTxIndex). */
function showStreamedTxIndex(block: BlockState, streamed: readonly TxRef[]): void {
  const index = new Map(streamed.map((t) => [t.tx_id, t.tx_index]));
  for (const t of block.served?.txs ?? []) {
    const i = t.doc.microblock_hash ? index.get(t.doc.tx_id) : undefined;
    if (i === undefined) continue;
    const doc = unpackTxDoc(t.packed);
    doc.body = doc.body.replace(/"tx_index":\d+,/, `"tx_index":${i},`);
    // Only the hot part shows the index: the cold one (events, raw bytes) stays as packed.
    t.packed = { hot: packTxDoc(doc).hot, cold: t.packed.cold };
  }
}

/** An orphaned block's accepted microblocks lose their canonical status with it. */
export function orphanAcceptedMicroblocks(ctx: ApplyContext, block: BlockState): void {
  for (const m of ctx.state.microblocksOf(block.parent_index_block_hash)) {
    if (m.canonical && m.index_block_hash === block.index_block_hash) {
      ctx.batch.reorged = true;
      m.canonical = false;
      write(ctx, m);
    }
  }
}

/** /new_microblocks: unconfirmed microblocks streamed on top of the canonical tip. */
export function applyMicroblocks(ctx: ApplyContext, ev: MicroblocksEvent): void {
  const { state, batch } = ctx;
  const tip = state.tip;
  // The reference ignores streams that do not build on the current tip (old ones are re-sent).
  if (!tip || ev.parent_index_block_hash !== tip.index_block_hash) return;
  const incoming = [...ev.microblocks].sort((a, b) => a.microblock_sequence - b.microblock_sequence);
  const known = (h: string) => state.microblocks.has(h) || incoming.some((m) => m.microblock_hash === h);
  for (const m of incoming) {
    if (m.microblock_sequence > 0 && !known(m.microblock_parent_hash)) return; // a gap: the anchor block will bring it
  }
  const fresh = incoming.filter((m) => !state.microblocks.has(m.microblock_hash));
  if (fresh.length === 0) return;
  batch.addFacts(ev.facts);
  batch.serving.docs(ctx.logId, ev.served, null);
  const txsByMb = new Map<string, typeof ev.txs>();
  for (const tx of ev.txs) {
    const list = txsByMb.get(tx.microblock_hash) ?? [];
    list.push(tx);
    txsByMb.set(tx.microblock_hash, list);
  }
  for (const meta of fresh) {
    const m = newMicroblock(meta, true, tip.block_height + 1);
    m.txs = txsByMb.get(meta.microblock_hash) ?? [];
    state.addMicroblock(m);
    // The stream's burn block fields are the payload's (the anchor's burn block), not the tip's.
    batch.addRows('microblocks', [microblockFactRow(m, { block_height: tip.block_height, block_hash: tip.block_hash, burn_block_hash: ev.burn_block_hash, burn_block_height: ev.burn_block_height, burn_block_time: ev.burn_block_time }, ctx.logId)]);
    for (const tx of m.txs) if (state.mempoolPending.has(tx.tx_id) || ctx.mempool.has(tx.tx_id)) setMempool(ctx, tx.tx_id, 'confirmed');
  }
  // The canonical stream is the path from the newest microblock back to sequence 0.
  const all = state.microblocksOf(tip.index_block_hash);
  const newest = all.reduce((a, b) => (b.microblock_sequence > a.microblock_sequence ? b : a));
  const onPath = new Set<string>();
  for (let m: MicroblockState | undefined = newest; m; m = m.microblock_sequence === 0 ? undefined : state.microblocks.get(m.microblock_parent_hash)) {
    onPath.add(m.microblock_hash);
  }
  for (const m of all) {
    const canonical = onPath.has(m.microblock_hash);
    if (fresh.some((f) => f.microblock_hash === m.microblock_hash) || m.canonical !== canonical) {
      if (m.canonical && !canonical) for (const tx of m.txs ?? []) setMempool(ctx, tx.tx_id, 'pending', { tx });
      m.canonical = canonical;
      write(ctx, m);
    }
  }
}
