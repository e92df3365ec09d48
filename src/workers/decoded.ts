// What the decode pool hands the processor for each event-log entry: fact rows (already serialized
// per table) plus the few fields the processor's chain state needs.

import type { PendingTx } from '../serving/pending-entry.ts';
import type { NativeFragment } from '../storage/native-format.ts';
import type { ServedRows } from '../serving/input.ts';
import type { Amount, BalanceDelta } from '../serving/input.ts';

/** Insert target -> its rows as a Native fragment (see rows.ts), each in an ArrayBuffer of its
 *  own, moved to the processor without a copy. */
export type TableBytes = Record<string, NativeFragment>;

export interface BlockMeta {
  index_block_hash: string;
  block_hash: string;
  block_height: number;
  parent_index_block_hash: string;
  parent_block_hash: string;
  parent_microblock_hash: string;
  parent_microblock_sequence: number;
  burn_block_hash: string;
  burn_block_height: number;
  burn_block_time: number;
  block_time: number;
  parent_burn_block_hash: string;
  parent_burn_block_height: number;
  parent_burn_block_time: number;
}

export interface TxRef {
  tx_id: string;
  /** '' for anchored txs. */
  microblock_hash: string;
  microblock_sequence: number;
  microblock_parent_hash: string;
  tx_index: number;
  /** The serialized tx (hex); in a /new_block's txs only '0x00' (a Bitcoin-originated tx) or ''
   *  (not carried: only an orphaned block's txs need it, and they are decoded again for it). */
  raw_tx: string;
  sender_address: string;
  sponsor_address: string;
  nonce: string;
  fee_rate: string;
  type_id: string;
  contract_id: string;
  function_name: string;
  /** Every principal the tx names (sender, sponsor, recipient, contract): the mempool's address
   *  index. A block's txs carry it only with their raw bytes (all the mempool takes back of them). */
  principals?: string[];
}

/** A change of a running event count (e.g. name 'nft_mints', key an asset identifier). */
export interface CountDelta {
  name: string;
  key: string;
  n: number;
}

/**
 * What a block adds to the analytics aggregates (src/workers/analytics-changes.ts), as parallel
 * arrays rather than an object per change: about 13 changes a tx, whose objects' copy between
 * threads, and their garbage on the processor's thread, cost more than their sums. Change i is
 * keys[i] (changeKey: kind and keys joined by NUL), kinds[i] (its index in ANALYTICS_KINDS), n[i]
 * and amounts[i]: a number while it is exact (within ±(2^53 - 1)), else its decimal string. Nearly
 * all are numbers, which the array holds unboxed: a string each was ~13 objects a tx to copy to
 * the processor and keep there until the block's batch was stored.
 */
export interface AnalyticsChanges {
  keys: string[];
  kinds: number[];
  n: number[];
  amounts: Amount[];
}

export interface MicroblockMeta {
  microblock_hash: string;
  microblock_sequence: number;
  microblock_parent_hash: string;
  parent_index_block_hash: string;
  tx_ids: string[];
}

/** A decoded entry, its rows as `F`: text while the worker builds it, bytes once handed over. */
export type DecodedEventWith<F> =
  | { kind: 'block'; block: BlockMeta; txs: TxRef[]; microblocks: MicroblockMeta[]; deltas: BalanceDelta[]; facts: F; served: ServedRows; /** STX issued, event counts (block-extras.ts) */ supply?: string; counts?: CountDelta[]; /** analytics-changes.ts */ analytics?: AnalyticsChanges }
  | { kind: 'burn_block'; burnBlock: Record<string, unknown>; facts: F }
  | { kind: 'microblocks'; parent_index_block_hash: string; burn_block_time: number; burn_block_height: number; burn_block_hash: string; microblocks: MicroblockMeta[]; txs: TxRef[]; facts: F; served: ServedRows }
  /** `docs` and `entries` parallel `txs`; `docs` empty without the serving store. A null document:
   *  a later block of the same decode task mines the tx (decodeEntriesMovable). */
  | { kind: 'mempool'; txs: TxRef[]; facts: F; docs: Array<Uint8Array | null>; entries: PendingTx[] }
  | { kind: 'drop_mempool'; tx_ids: string[]; reason: string; new_tx_id: string }
  | { kind: 'facts'; facts: F }
  /** Rows whose key includes the log id or receipt time, completed by the processor. */
  | { kind: 'signer'; table: string; rows: Array<Record<string, unknown>> }
  | { kind: 'ignored' };

/** As the processor receives it. */
export type DecodedEvent = DecodedEventWith<TableBytes>;
/** As the decoders build it (the same). */
export type DecodedText = DecodedEvent;

/** A decode whose serving documents are rendered later, from the rows it kept (the observer's
 *  check: decode-event.ts decodeCheckedThenServed): the decoder leaves `served` empty and puts here
 *  the call that renders them. */
export interface ServeLater {
  render?: () => ServedRows;
}

export type DecodeOutcome = { ok: true; event: DecodedEvent } | { ok: false; reason: string };
export type DecodeTextOutcome = { ok: true; event: DecodedText } | { ok: false; reason: string };
