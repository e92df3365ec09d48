// The processor's view of the chain: the blocks and microblocks of recent heights with their
// canonical status, the tip, and the pending mempool. Older heights live only in the store and are
// read back when a late block or a deep reorg reaches them (chain-load.ts); memory stays bounded
// however long the chain grows.
import type { AnalyticsChanges, CountDelta, TxRef } from '../../workers/decoded.ts';
import { PendingNonces, rememberMinedNonces } from './mempool-nonces.ts';
import type { BalanceDelta, ServedRows } from '../../serving/input.ts';

export interface BlockState {
  index_block_hash: string;
  block_hash: string;
  block_height: number;
  parent_index_block_hash: string;
  canonical: boolean;
  burn_block_time: number;
  burn_block_height: number;
  burn_block_hash: string;
  parent_microblock_hash: string;
  parent_microblock_sequence: number;
  /** Event-log entry that delivered the block first. */
  log_id: number;
  /** Loaded lazily for blocks from before this run. */
  txs?: TxRef[];
  deltas?: BalanceDelta[];
  /** Its documents and facts for the serving store (recent blocks; else decoded again from the log). */
  served?: ServedRows;
  /** STX the block issued and the event counts it changed (see running-totals.ts). */
  supply?: string;
  counts?: CountDelta[];
  /** Its header time (the burn block's for epoch 2.x) and its analytics changes (processor/analytics.ts). */
  block_time?: number;
  analytics?: AnalyticsChanges;
}

export interface MicroblockState {
  microblock_hash: string;
  microblock_sequence: number;
  microblock_parent_hash: string;
  parent_index_block_hash: string;
  canonical: boolean;
  /** Anchor block that accepted it ('' while unconfirmed). */
  index_block_hash: string;
  block_hash: string;
  block_height: number;
  burn_block_time: number;
  burn_block_height: number;
  burn_block_hash: string;
  tx_ids: string[];
  txs?: TxRef[];
}

export const MINED_MEMORY = 512;
const DETAIL_HEIGHTS = 256;

export class ChainState {
  /** Blocks of heights >= low (and their microblocks) are all here; lower ones only in the store. */
  low = 0;
  /** How many times lower heights were read back from the store. */
  loads = 0;
  readonly blocks = new Map<string, BlockState>();
  readonly byHeight = new Map<number, string[]>();
  readonly microblocks = new Map<string, MicroblockState>();
  readonly microblocksByParent = new Map<string, Set<string>>();
  /** tx_id -> pending in the mempool */
  readonly mempoolPending = new Set<string>();
  /** Tx ids of recent canonical blocks: a mempool announcement of a tx already mined is ignored. */
  readonly minedRecently = new Set<string>();
  /** `sender|nonce` -> tx id, of the same blocks' txs (mempool nonce conflicts). */
  readonly minedNonces = new Map<string, string>();
  /** The pending mempool by account and nonce. */
  readonly pendingNonces = new PendingNonces();
  private readonly minedQueue: Array<{ txIds: string[]; nonces: Array<[string, string]> }> = [];

  /** Remembers the txs of the last MINED_MEMORY canonical blocks. */
  rememberMined(txs: ReadonlyArray<{ tx_id: string; sender_address: string; nonce: string; raw_tx: string }>): void {
    const txIds = txs.map((t) => t.tx_id);
    const keys = rememberMinedNonces(this, txs);
    this.minedQueue.push({ txIds, nonces: keys.map((k) => [k, this.minedNonces.get(k)!]) });
    for (const id of txIds) this.minedRecently.add(id);
    while (this.minedQueue.length > MINED_MEMORY) {
      const old = this.minedQueue.shift()!;
      for (const id of old.txIds) this.minedRecently.delete(id);
      for (const [k, id] of old.nonces) if (this.minedNonces.get(k) === id) this.minedNonces.delete(k);
    }
  }

  /** An orphaned block's txs no longer hold their nonces. */
  forgetMinedNonces(txs: ReadonlyArray<{ tx_id: string; sender_address: string; nonce: string }>): void {
    for (const t of txs) {
      const key = `${t.sender_address}|${Number(t.nonce)}`;
      if (this.minedNonces.get(key) === t.tx_id) this.minedNonces.delete(key);
    }
  }
  tip: BlockState | null = null;

  addBlock(b: BlockState): void {
    this.blocks.set(b.index_block_hash, b);
    // Keep txs and balance changes in memory only for recent heights (what reorgs touch); older
    // ones are read back from their fact tables if ever needed.
    for (const h of this.byHeight.get(b.block_height - DETAIL_HEIGHTS) ?? []) {
      const old = this.blocks.get(h)!;
      old.txs = undefined;
      old.deltas = undefined;
      old.served = undefined;
      old.supply = undefined;
      old.counts = undefined;
      old.analytics = undefined;
    }
    const list = this.byHeight.get(b.block_height);
    if (list) list.push(b.index_block_hash);
    else this.byHeight.set(b.block_height, [b.index_block_hash]);
    if (b.canonical && (!this.tip || b.block_height >= this.tip.block_height)) this.tip = b;
  }

  addMicroblock(m: MicroblockState): void {
    this.microblocks.set(m.microblock_hash, m);
    let set = this.microblocksByParent.get(m.parent_index_block_hash);
    if (!set) this.microblocksByParent.set(m.parent_index_block_hash, (set = new Set()));
    set.add(m.microblock_hash);
  }

  canonicalAt(height: number): BlockState | undefined {
    for (const h of this.byHeight.get(height) ?? []) {
      const b = this.blocks.get(h)!;
      if (b.canonical) return b;
    }
    return undefined;
  }

  microblocksOf(parentIndexBlockHash: string): MicroblockState[] {
    return [...(this.microblocksByParent.get(parentIndexBlockHash) ?? [])].map((h) => this.microblocks.get(h)!);
  }

  /** Whether `block` accepted (confirmed) the microblock, as things stand now. */
  accepted(block: BlockState, microblockHash: string): boolean {
    const m = this.microblocks.get(microblockHash);
    return !!m && m.canonical && m.index_block_hash === block.index_block_hash;
  }

  /** Forgets the blocks below height `cut`, and the microblocks streamed on them (all stored). */
  forgetBelow(cut: number): void {
    for (let h = this.low; h < cut; h++) {
      for (const hash of this.byHeight.get(h) ?? []) {
        const b = this.blocks.get(hash)!;
        this.blocks.delete(hash);
        for (const parent of [hash, b.parent_index_block_hash]) {
          for (const m of this.microblocksByParent.get(parent) ?? []) this.microblocks.delete(m);
          this.microblocksByParent.delete(parent);
        }
      }
      this.byHeight.delete(h);
    }
    this.low = Math.max(this.low, cut);
  }

  /** Canonical microblocks streamed on the tip that no block has confirmed yet. */
  liveMicroblocks(): string[] {
    if (!this.tip) return [];
    return this.microblocksOf(this.tip.index_block_hash).filter((m) => m.canonical && !m.index_block_hash).map((m) => m.microblock_hash);
  }
}
