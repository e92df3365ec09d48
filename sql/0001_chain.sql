-- Chain facts and the canonical overlay.
--
-- Facts are append-only and never rewritten by a fork: a block, a transaction as included in one
-- block (or microblock), an event. Whether a block or microblock is on the canonical chain lives
-- in the small *_canonical overlay tables, versioned by the event-log id that decided it
-- (ReplacingMergeTree(version): the newest row per key wins). Fact rows decoded from a payload
-- carry no log position (decoding is a pure function of the payload); `log_id` appears where the
-- processor writes a row and its position matters. Hashes are 0x-prefixed lowercase hex; amounts
-- are 128-bit integers.
-- Every table accepts the per-batch insert_deduplication_token, so re-processing a batch after a
-- crash leaves one copy.

CREATE TABLE IF NOT EXISTS blocks (
  index_block_hash String,
  block_hash String,
  block_height UInt32,
  parent_index_block_hash String,
  parent_block_hash String,
  parent_microblock_hash String,
  parent_microblock_sequence Int32,
  burn_block_hash String,
  burn_block_height UInt32,
  burn_block_time UInt32,
  parent_burn_block_hash String,
  parent_burn_block_height UInt32,
  parent_burn_block_time UInt32,
  miner_txid String,
  -- Nakamoto header timestamp; for epoch 2.x blocks the burn block time.
  block_time UInt32,
  -- -1: a Nakamoto block whose payload did not say.
  tenure_height Int32,
  consensus_hash String,
  execution_cost_read_count UInt64,
  execution_cost_read_length UInt64,
  execution_cost_runtime UInt64,
  execution_cost_write_count UInt64,
  execution_cost_write_length UInt64,
  -- Transactions of this block in the reference API's order: anchored ones by tx_index descending,
  -- then those of confirmed microblocks likewise; tx_microblock_hashes is parallel ('' = anchored).
  tx_ids Array(String),
  tx_microblock_hashes Array(String),
  -- Transactions the block itself carried (tx_ids may also hold relabelled boot receipts).
  tx_count UInt32,
  signer_bitvec Nullable(String),
  signer_signatures Array(String),
  signer_signature_hash String,
  miner_signature String,
  cycle_number Nullable(UInt32),
  reward_set Nullable(String),
  pox_v1_unlock_height UInt32,
  pox_v2_unlock_height UInt32,
  pox_v3_unlock_height UInt32,
  pox_v4_unlock_height UInt32
) ENGINE = ReplacingMergeTree
ORDER BY index_block_hash
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000;

-- Which block is canonical at each height. A reorg writes a few rows here, not millions elsewhere.
CREATE TABLE IF NOT EXISTS block_canonical (
  block_height UInt32,
  index_block_hash String,
  block_hash String,
  canonical UInt8,
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY (block_height, index_block_hash)
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000;

-- Epoch 2.x microblocks: streamed after an anchor block, confirmed (accepted) by a later block.
CREATE TABLE IF NOT EXISTS microblocks (
  microblock_hash String,
  microblock_sequence UInt16,
  microblock_parent_hash String,
  parent_index_block_hash String,
  block_height UInt32,
  parent_block_height UInt32,
  parent_block_hash String,
  parent_burn_block_hash String,
  parent_burn_block_height UInt32,
  parent_burn_block_time UInt32,
  tx_ids Array(String),
  log_id UInt64
) ENGINE = ReplacingMergeTree
ORDER BY microblock_hash
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000;

-- Microblock state: canonical (on the accepted stream, or streamed on the canonical tip) and, once
-- accepted, the anchor block that confirmed it.
CREATE TABLE IF NOT EXISTS microblock_canonical (
  microblock_hash String,
  parent_index_block_hash String,
  microblock_sequence UInt16,
  canonical UInt8,
  index_block_hash String,
  block_hash String,
  block_height UInt32,
  burn_block_time UInt32,
  burn_block_height UInt32,
  burn_block_hash String,
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY microblock_hash
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000;

-- A transaction as included in one block or microblock. The same tx_id appears again for each fork
-- or stream that included it; unanchored microblock rows have index_block_hash ''.
CREATE TABLE IF NOT EXISTS txs (
  tx_id String,
  index_block_hash String,
  microblock_hash String,
  block_hash String,
  block_height UInt32,
  burn_block_time UInt32,
  burn_block_height UInt32,
  parent_burn_block_time UInt32,
  block_time UInt32,
  parent_block_hash String,
  parent_index_block_hash String,
  microblock_sequence UInt32,
  microblock_parent_hash String,
  tx_index UInt32,
  status LowCardinality(String),
  raw_tx String,
  raw_result String,
  type_id LowCardinality(String),
  sender_address String,
  sponsor_address String,
  nonce UInt64,
  fee_rate UInt128,
  contract_id String,
  function_name String,
  event_count UInt32,
  execution_cost_read_count UInt64,
  execution_cost_read_length UInt64,
  execution_cost_runtime UInt64,
  execution_cost_write_count UInt64,
  execution_cost_write_length UInt64,
  vm_error Nullable(String),
  -- Bitcoin-originated txs (raw_tx 0x00): the node's burnchain_op object, as JSON.
  burnchain_op Nullable(String)
) ENGINE = ReplacingMergeTree
ORDER BY (tx_id, index_block_hash, microblock_hash)
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000;

-- Address history: one row per (principal, tx) for every principal a tx touches (sender, sponsor,
-- recipient, contract, event parties). Ordered for newest-first pages of one principal.
CREATE TABLE IF NOT EXISTS principal_txs (
  principal String,
  block_height UInt32,
  microblock_sequence UInt32,
  tx_index UInt32,
  tx_id String,
  index_block_hash String,
  microblock_hash String,
  -- What the principal did in it, for the with_transfers views.
  stx_sent UInt128,
  stx_received UInt128
) ENGINE = ReplacingMergeTree
ORDER BY (principal, block_height, microblock_sequence, tx_index, index_block_hash, microblock_hash)
SETTINGS non_replicated_deduplication_window = 1000;

-- The node's per-block reward maturity report.
CREATE TABLE IF NOT EXISTS miner_rewards (
  index_block_hash String,
  block_height UInt32,
  from_index_block_hash String,
  from_stacks_block_hash String,
  recipient String,
  miner_address String,
  coinbase_amount UInt128,
  tx_fees_anchored UInt128,
  tx_fees_streamed_confirmed UInt128,
  tx_fees_streamed_produced UInt128
) ENGINE = ReplacingMergeTree
ORDER BY (index_block_hash, recipient, from_index_block_hash)
SETTINGS non_replicated_deduplication_window = 1000;
