// What the serving store keeps: API objects rendered once at ingest (by the decode workers, from the
// same rows ClickHouse gets) with the fields that a reorg or a later block can change left out; the
// API adds those at answer time. Fragments are JSON text so an answer is assembled by concatenation.
import type { BlockRow } from '../render/rows.ts';

/** A contract-call payload, rendered at answer time with the called contract's ABI. */
export interface CallPart {
  contract_id: string;
  function_name: string;
  /** [hex, repr, type signature of the value] per argument. */
  args: Array<[string, string, string]>;
}

/** Events kept inside a tx document (the default first page). */
export const INLINE_EVENTS = 20;

/** What a tx document's flags say. */
export const TX_FLAGS = {
  /** The body carries its block's placement members itself (it is not its entry's fragment). */
  FULL_BODY: 1,
  /** From a microblock no anchor block had confirmed when it was stored (index_block_hash ''):
   *  its height and parent hash depend on the stream, so it is answered from ClickHouse. */
  UNANCHORED: 2,
  /** Its block is not its log entry's block (index_block_hash and block_height stored with it). */
  OWN_PLACEMENT: 4,
} as const;

/**
 * A mined tx placement as `/extended/v1/tx/:id` renders it, less what its block gives (the members
 * its entry's frame holds, see block-record.ts) and what a later block or a reorg changes
 * (`canonical`, `microblock_canonical`, `events`, `contract_call`). Its events and raw bytes (the
 * ColdDoc) are stored with it, packed apart inside the value: only the tx's own answers unpack them.
 */
export interface TxDoc {
  flags: number;
  /** The object's members as JSON text without the braces (tx_id first). */
  body: string;
  call?: CallPart;
  event_count: number;
  sender_address: string;
  fee_rate: string;
  /** '' for anchored txs. */
  microblock_hash: string;
  /** 2147483647 for anchored txs. */
  microblock_sequence: number;
  tx_index: number;
  /** With OWN_PLACEMENT only. */
  index_block_hash?: string;
  block_height?: number;
  /** Read only when asked for. */
  cold?: ColdDoc;
}

/** An event as stored: [event_index, event_type, the members after `tx_id` as JSON text]. The tx id
 *  is the same in every event of a tx, so it is added when answered. */
export type StoredEvent = [number, string, string];

/** A tx placement's events page and raw bytes, read by its own answers only. */
export interface ColdDoc {
  /** Events with event_index < INLINE_EVENTS (all of them are kept apart when there are more). */
  events: StoredEvent[];
  raw: Uint8Array;
}

/** A tx as the mempool shows it, without its status, replacement and receipt time. */
export interface MempoolDoc {
  body: string;
  call?: CallPart;
  raw: Uint8Array;
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

/** What a principal did in one canonical tx placement, kept in its list entry (principal-list.ts). */
export interface PrincipalTxFact {
  /** ROLE bits (src/stacks/roles.ts). */
  roles: number;
  stx_sent: string;
  stx_received: string;
  /** Its STX, FT and NFT events: [event_index, ASSET_EVENT code]; the events themselves are the tx's. */
  events: Array<[number, number]>;
  /** The tx's nonce when the principal is its origin. */
  nonce?: number;
  /** The sponsor nonce when the principal sponsors it. */
  sponsor_nonce?: number;
}

/** An asset event's kind and type as one small code (a principal's list entry keeps these). */
export const ASSET_EVENT_CODES: ReadonlyArray<[AssetEvent['kind'], string]> = [
  ['stx', 'transfer'], ['stx', 'mint'], ['stx', 'burn'], ['ft', 'transfer'], ['ft', 'mint'], ['ft', 'burn'], ['nft', 'transfer'], ['nft', 'mint'], ['nft', 'burn'],
];
/** An event of a kind and type not listed above. */
export const OTHER_ASSET_EVENT = 255;

export const assetEventCode = (kind: string, type: string): number => {
  const i = ASSET_EVENT_CODES.findIndex(([k, t]) => k === kind && t === type);
  return i < 0 ? OTHER_ASSET_EVENT : i;
};

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

/** The block row (numbers parsed; no signer members: those answers read ClickHouse), with its txs'
 *  placement ids and positions. */
export type BlockDoc = Omit<BlockRow, 'canonical' | 'signer_bitvec' | 'signer_signatures' | 'signer_signature_hash' | 'miner_signature' | 'consensus_hash'> & {
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
