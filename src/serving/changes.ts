// What one processor batch changes in the serving store, recorded in order while the batch is
// applied and written when it is stored (writer.ts). Decisions that depend on the chain state
// (which microblocks a block accepted, the tip) are taken at apply time and carried here, because
// the next batch is applied while this one is written.
import type { PendingTx } from './pending-entry.ts';
import type { MicroblockRef } from './store.ts';
import type { ServedRows, BalanceDelta } from './input.ts';

/** Placement ids are derived from the log entry that brought a placement and its index in that
 *  payload, so a batch redone after a crash, or a block decoded again, gives the same ids. */
export const PIDS_PER_ENTRY = 2 ** 20;
export const pidOf = (logId: number, index: number): number => logId * PIDS_PER_ENTRY + index;

/** A canonical placement as the lists order it. */
export interface ListedTx {
  pid: number;
  tx_id: string;
  block_height: number;
  microblock_hash: string;
  microblock_sequence: number;
  tx_index: number;
  /** A boot receipt shown as block 1's tx. */
  boot: boolean;
}

/** One principal's part in a listed placement. */
export interface ListedEntry extends ListedTx {
  principal: string;
  roles: number;
  /** What the principal did in it, packed (principal-fact.ts). */
  fact: Uint8Array;
  /** The principal's id, once the writer gave it one (the journal names it so). */
  principalId?: number;
}

/** [principal, asset identifier, NFTs sent, NFTs received] */
export type NftDelta = [string, string, number, number];

/** What a block contributes to the lists and running totals while it is canonical. */
export interface BlockContribution {
  txs: ListedTx[];
  entries: ListedEntry[];
  deltas: BalanceDelta[];
  nft: NftDelta[];
}

export type ServingOp =
  /** A payload's documents and facts (stored whatever the block's fate). */
  | { op: 'docs'; logId: number; served: ServedRows; pidBase: number; canonical: boolean | null }
  /** A block joins (true) or leaves (false) the canonical chain. */
  | { op: 'canonical'; index_block_hash: string; block_height: number; canonical: boolean; contribution: BlockContribution }
  | { op: 'microblock'; microblock_hash: string; ref: MicroblockRef }
  /** `doc` null: not rendered yet (completeMempoolDocs renders it unless the batch mines the tx). */
  | { op: 'mempool-doc'; tx_id: string; doc: Uint8Array | null; raw_tx: string }
  /** A mempool status change; `receipt_time` when the tx was (re)announced or restored in this
   *  entry, `entry` when it became pending. */
  | { op: 'mempool'; tx_id: string; status: 'pending' | 'dropped' | 'confirmed'; reason: string; replaced_by: string; logId: number; receipt_time?: number; entry?: PendingTx };

/** The chain as the batch leaves it (for the in-memory view of answers). */
export interface ChainSnapshot {
  tip: { index_block_hash: string; block_height: number } | null;
  /** Canonical microblocks on the tip that no block has confirmed yet. */
  liveMicroblocks: string[];
  /** Some block that was canonical stopped being so. */
  reorged: boolean;
}

export class ServingChanges {
  readonly ops: ServingOp[] = [];
  snapshot: ChainSnapshot | null = null;
  /** Where each log entry's ops begin (the real-time messages are per entry: src/realtime). */
  readonly entryStarts: Array<{ opIndex: number; logId: number }> = [];

  /** `enabled` false: a process without a serving store; callers skip work only it needs. */
  constructor(readonly enabled = true) {}

  beginEntry(logId: number): void {
    if (this.enabled) this.entryStarts.push({ opIndex: this.ops.length, logId });
  }

  docs(logId: number, served: ServedRows, canonical: boolean | null): void {
    if (this.enabled) this.ops.push({ op: 'docs', logId, served, pidBase: pidOf(logId, 0), canonical });
  }

  canonical(index_block_hash: string, block_height: number, canonical: boolean, contribution: BlockContribution): void {
    if (this.enabled) this.ops.push({ op: 'canonical', index_block_hash, block_height, canonical, contribution });
  }

  microblock(microblock_hash: string, ref: MicroblockRef): void {
    if (this.enabled) this.ops.push({ op: 'microblock', microblock_hash, ref });
  }

  mempoolDoc(tx_id: string, doc: Uint8Array | null, raw_tx: string): void {
    if (this.enabled) this.ops.push({ op: 'mempool-doc', tx_id, doc, raw_tx });
  }

  mempool(change: Extract<ServingOp, { op: 'mempool' }>): void {
    if (this.enabled) this.ops.push(change);
  }

  /** The txs the batch leaves mined canonically, each with the index of the op that last made it so. */
  minedAt(): Map<string, number> {
    const mined = new Map<string, number>();
    this.ops.forEach((op, i) => {
      if (op.op !== 'canonical') return;
      for (const t of op.contribution.txs) {
        if (op.canonical) mined.set(t.tx_id, i);
        else mined.delete(t.tx_id);
      }
    });
    return mined;
  }

  get isEmpty(): boolean {
    return this.ops.length === 0 && this.snapshot === null;
  }
}
