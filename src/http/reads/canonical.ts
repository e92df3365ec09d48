// SQL fragments that resolve canonical status through the overlay tables. Every read of chain data
// goes through these, so the rules live in one place.

/** Where canonical blocks are read from (block_canonical's newest version of each block). */
const CANONICAL_FROM = 'FROM block_canonical FINAL WHERE canonical = 1';

/** Canonical blocks: (block_height, index_block_hash, block_hash). */
export const CANONICAL_BLOCKS = `(SELECT block_height, index_block_hash, block_hash ${CANONICAL_FROM})`;

/** Latest state of every microblock. */
export const MICROBLOCK_STATE = `(SELECT * FROM microblock_canonical FINAL)`;

/** Block columns as the API formatters read them. */
export const BLOCK_COLUMNS = `index_block_hash, block_hash, block_height, parent_index_block_hash, parent_block_hash,
  parent_microblock_hash, parent_microblock_sequence, burn_block_hash, burn_block_height, burn_block_time,
  miner_txid, block_time, tenure_height, execution_cost_read_count, execution_cost_read_length,
  execution_cost_runtime, execution_cost_write_count, execution_cost_write_length, tx_ids, tx_microblock_hashes, tx_count,
  signer_bitvec, signer_signatures, signer_signature_hash, miner_signature, consensus_hash`;
