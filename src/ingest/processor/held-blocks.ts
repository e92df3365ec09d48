// Blocks whose parent is not stored. The reference refuses such a block (an error to the node,
// which then retries it until the parent is there, holding up every later event). We acknowledge
// it and store it, but hold it: it is never canonical while it hangs off nothing, however tall.
// When its parent arrives it is connected (with every held block that hangs off it), and if the
// connected branch is now the tallest it becomes the canonical chain, as any late fork would.
//
// "Connected" is structural: a block at height 0 or 1 (the chain's start; the reference asks no
// parent below height 2 either), or one whose parent is stored, one height below, and connected.
import type { BlockState, ChainState } from './chain-state.ts';

/** Blocks held now (index_block_hash), kept beside the chain state it describes. */
const heldOf = new WeakMap<ChainState, Set<string>>();

/** The held set of `state`; for a state just loaded from the store, found from its blocks. */
export function heldBlocks(state: ChainState): Set<string> {
  let held = heldOf.get(state);
  if (!held) {
    heldOf.set(state, (held = new Set()));
    const heights = [...state.byHeight.keys()].sort((a, b) => a - b);
    for (const h of heights) for (const hash of state.byHeight.get(h)!) if (mustHold(state, state.blocks.get(hash)!)) held.add(hash);
  }
  return held;
}

/** Whether `block` hangs off something held or missing (its parent as the state has it now). */
export function mustHold(state: ChainState, block: Pick<BlockState, 'block_height' | 'parent_index_block_hash'>): boolean {
  if (block.block_height <= 1) return false;
  // Below what memory holds, every block is stored and connected (held ones are never forgotten,
  // nor the height below them: chain-load.ts).
  if (block.block_height - 1 < state.low) return false;
  const parent = state.blocks.get(block.parent_index_block_hash);
  return !parent || parent.block_height !== block.block_height - 1 || heldBlocks(state).has(parent.index_block_hash);
}

/**
 * `parent` was just stored and is connected: connects the held blocks that hang off it, directly or
 * through each other. Returns the tallest of them (the first seen on a tie), or undefined.
 */
export function connectHeldChildren(state: ChainState, parent: BlockState): BlockState | undefined {
  const held = heldBlocks(state);
  if (held.size === 0) return undefined;
  let tallest: BlockState | undefined;
  const queue = [parent];
  while (queue.length > 0) {
    const p = queue.shift()!;
    for (const hash of state.byHeight.get(p.block_height + 1) ?? []) {
      const child = state.blocks.get(hash)!;
      if (!held.has(hash) || child.parent_index_block_hash !== p.index_block_hash) continue;
      held.delete(hash);
      queue.push(child);
      if (!tallest || child.block_height > tallest.block_height || (child.block_height === tallest.block_height && child.log_id < tallest.log_id)) tallest = child;
    }
  }
  return tallest;
}

export interface HeldBlockReport {
  index_block_hash: string;
  block_height: number;
  parent_index_block_hash: string;
  /** The event-log entry that delivered it. */
  log_id: number;
}

/** What /extended shows: how many blocks are held, and the lowest few (whose parents are missing). */
export function heldBlocksReport(state: ChainState, limit = 10): { count: number; blocks: HeldBlockReport[] } {
  const held = [...heldBlocks(state)].map((h) => state.blocks.get(h)!).filter(Boolean);
  held.sort((a, b) => a.block_height - b.block_height || a.log_id - b.log_id);
  return {
    count: held.length,
    blocks: held.slice(0, limit).map((b) => ({ index_block_hash: b.index_block_hash, block_height: b.block_height, parent_index_block_hash: b.parent_index_block_hash, log_id: b.log_id })),
  };
}
