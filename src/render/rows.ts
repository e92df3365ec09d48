// Stored rows as the renderers read them (numbers parsed): shared by the ClickHouse read paths and
// the ingest-time rendering of served documents.

/** A txs row as stored (numbers parsed). */
export interface TxRow {
  tx_id: string;
  index_block_hash: string;
  microblock_hash: string;
  block_hash: string;
  block_height: number;
  burn_block_time: number;
  burn_block_height: number;
  parent_burn_block_time: number;
  block_time: number;
  parent_block_hash: string;
  parent_index_block_hash: string;
  microblock_sequence: number;
  microblock_parent_hash: string;
  tx_index: number;
  /** The tx_index shown when it differs from the placement's (a streamed microblock tx, see
   *  withStreamedTxIndex); keys and order use tx_index. */
  shown_tx_index?: number;
  status: string;
  raw_tx: string;
  raw_result: string;
  type_id: string;
  sender_address: string;
  sponsor_address: string;
  nonce: number;
  fee_rate: string;
  contract_id: string;
  function_name: string;
  event_count: number;
  /** Bit set of the event tables holding its events (src/storage/event-tables.ts). */
  event_tables: number;
  execution_cost_read_count: number;
  execution_cost_read_length: number;
  execution_cost_runtime: number;
  execution_cost_write_count: number;
  execution_cost_write_length: number;
  vm_error: string | null;
  burnchain_op: string | null;
}

/** A placement with its canonical status resolved. */
export interface PlacedTx extends TxRow {
  /** The including block is canonical (for an unconfirmed microblock row: its stream is). */
  canonical: boolean;
  /** Anchored, or from a microblock that is canonical and (once confirmed) accepted by this block. */
  microblock_canonical: boolean;
  /** From a microblock no anchor block has confirmed yet (index_block_hash ''). */
  unanchored: boolean;
}

/** Identifies one placement: the events tables use the same key. */
export interface TxKey {
  tx_id: string;
  index_block_hash: string;
  microblock_hash: string;
}

export const keyOf = (k: TxKey): string => `${k.tx_id}|${k.index_block_hash}|${k.microblock_hash}`;

export type MempoolState = 'pending' | 'dropped' | 'confirmed';

export interface MempoolRow {
  tx_id: string;
  raw_tx: string;
  receipt_time: number;
  sender_address: string;
  sponsor_address: string;
  nonce: number;
  fee_rate: string;
  type_id: string;
  contract_id: string;
  function_name: string;
  log_id: number;
  status: MempoolState;
  reason: string;
  replaced_by: string;
}

export interface BlockRow {
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
  miner_txid: string;
  block_time: number;
  tenure_height: number;
  execution_cost_read_count: number;
  execution_cost_read_length: number;
  execution_cost_runtime: number;
  execution_cost_write_count: number;
  execution_cost_write_length: number;
  tx_ids: string[];
  tx_microblock_hashes: string[];
  tx_count: number;
  signer_bitvec: string | null;
  signer_signatures: string[];
  signer_signature_hash: string;
  miner_signature: string;
  consensus_hash: string;
  canonical: boolean;
}

export interface MicroblockInfo {
  microblock_hash: string;
  microblock_sequence: number;
  parent_index_block_hash: string;
  index_block_hash: string;
  tx_count: number;
}

export type EventKind = 'stx_asset' | 'stx_lock' | 'fungible_token_asset' | 'non_fungible_token_asset' | 'smart_contract_log';

export interface EventRow extends TxKey {
  kind: EventKind;
  event_index: number;
  block_height: number;
  tx_index: number;
  /** Kind-specific values, see SELECTS. */
  a: string;
  b: string;
  c: string;
  d: string;
  e: string;
}

/** A principal_events row as read (amounts as decimal strings). */
export interface PrincipalEventRow {
  tx_id: string;
  index_block_hash: string;
  microblock_hash: string;
  block_height: number;
  tx_index: number;
  event_index: number;
  kind: 'stx' | 'ft' | 'nft' | 'stx_lock' | 'pox2' | 'pox3' | 'pox4';
  asset_event_type: string;
  asset_identifier: string;
  sender: string;
  recipient: string;
  amount: string;
  value: string;
  memo: string;
  unlock_height: string;
}
