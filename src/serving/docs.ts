// What the serving store keeps: API objects rendered once at ingest (by the decode workers, from the
// same rows ClickHouse gets) with the fields that a reorg or a later block can change left out; the
// API adds those at answer time. Fragments are JSON text so an answer is assembled by concatenation.
import type { BlockRow } from '../render/rows.ts';

/** Placement of a tx in one block or microblock (a tx can have several: forks, microblocks). */
export interface Placement {
  tx_id: string;
  index_block_hash: string;
  /** '' for anchored txs. */
  microblock_hash: string;
  block_height: number;
  /** 2147483647 for anchored txs. */
  microblock_sequence: number;
  tx_index: number;
}

/** A contract-call payload, rendered at answer time with the called contract's ABI. */
export interface CallPart {
  contract_id: string;
  function_name: string;
  /** [hex, repr, type signature of the value] per argument. */
  args: Array<[string, string, string]>;
}

/** Events kept inside a tx document (the default first page). */
export const INLINE_EVENTS = 20;

/** A mined tx placement as `/extended/v1/tx/:id` renders it. */
export interface TxDoc extends Placement {
  /**
   * The object's members as JSON text without the braces, leaving out `canonical`,
   * `microblock_canonical`, `events` and `contract_call`.
   */
  body: string;
  call?: CallPart;
  /** [event_index, event JSON] of the events with event_index < INLINE_EVENTS. */
  events: Array<[number, string]>;
  event_count: number;
  sender_address: string;
  fee_rate: string;
  /** From a microblock no anchor block had confirmed when it was stored (index_block_hash ''):
   *  its height and parent hash depend on the stream, so it is answered from ClickHouse. */
  unanchored: boolean;
}

/** A tx as the mempool shows it, without its status, replacement and receipt time. */
export interface MempoolDoc {
  tx_id: string;
  body: string;
  call?: CallPart;
}

/** A principal's asset event in one tx (the with_transfers lists and v2 per-tx counts). */
export interface AssetEvent {
  event_index: number;
  kind: 'stx' | 'ft' | 'nft';
  asset_event_type: string;
  asset_identifier: string;
  sender: string;
  recipient: string;
  amount: string;
  value: string;
}

/** What a principal did in one tx placement (principal_txs and its principal_events). */
export interface PrincipalTxFact {
  /** ROLE bits (src/workers/address-index.ts). */
  roles: number;
  stx_sent: string;
  stx_received: string;
  events: AssetEvent[];
  /** The tx's nonce when the principal is its origin. */
  nonce?: number;
  /** The sponsor nonce when the principal sponsors it. */
  sponsor_nonce?: number;
  /** Chain position (the list order), for rebuilding a principal's lists. */
  block_height: number;
  microblock_sequence: number;
  tx_index: number;
  tx_id: string;
}

/** An STX lock or PoX operation of a principal (lock state at answer time). */
export interface LockFact {
  kind: 'stx_lock' | 'pox2' | 'pox3' | 'pox4';
  asset_event_type: string;
  tx_id: string;
  index_block_hash: string;
  microblock_hash: string;
  block_height: number;
  amount: string;
  unlock_height: string;
}

/** The block row as stored in ClickHouse (numbers parsed), with its txs' placement ids and positions. */
export type BlockDoc = Omit<BlockRow, 'canonical'> & {
  pox_v1_unlock_height: number;
  pox_v2_unlock_height: number;
  pox_v3_unlock_height: number;
  /** Placement ids of tx_ids (same order). */
  pids: number[];
  /** (microblock_sequence, tx_index) of tx_ids (same order). */
  positions: Array<[number, number]>;
};

/** Whether the block accepted microblock txs or names a parent microblock: its v1 answer then lists
 *  accepted microblocks, so it is not the stored text (a stream after it is checked separately). */
export function acceptsMicroblocks(b: Pick<BlockDoc, 'parent_microblock_hash' | 'tx_microblock_hashes'>): boolean {
  return Boolean(b.parent_microblock_hash) || b.tx_microblock_hashes.some(Boolean);
}

/** A pending mempool tx as lists, filters, balances and nonces need it. */
export interface PendingEntry {
  tx_id: string;
  receipt_time: number;
  /** The log entry that first put it in the mempool (ties in age order). */
  log_id: number;
  sender_address: string;
  sponsor_address: string;
  sponsored: boolean;
  fee_rate: string;
  type_id: string;
  contract_id: string;
  /** Token transfers. */
  recipient: string;
  amount: string;
  nonce: number;
  sponsor_nonce: number | null;
  /** Serialized size in bytes. */
  tx_size: number;
  principals: string[];
}

/** A mempool tx's status as the tx endpoints show it. */
export interface MempoolState {
  status: 'pending' | 'dropped' | 'confirmed';
  reason: string;
  replaced_by: string;
  receipt_time: number;
  /** The log entry that first gave it a mempool status. */
  first_log_id: number;
}
