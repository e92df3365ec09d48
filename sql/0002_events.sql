-- Transaction events, one table per kind, as facts of (tx_id, the block/microblock that included
-- the tx, event_index). event_index is renumbered 0..n-1 per tx in the node's event order, as the
-- reference API does. Only events of successful txs are kept (the node also reports those of
-- aborted txs with committed=false; they had no effect).

CREATE TABLE IF NOT EXISTS stx_events (
  tx_id String,
  index_block_hash String,
  microblock_hash String,
  event_index UInt32,
  block_height UInt32,
  tx_index UInt32,
  -- transfer | mint | burn
  asset_event_type LowCardinality(String),
  sender String,
  recipient String,
  amount UInt128,
  memo String
) ENGINE = ReplacingMergeTree
ORDER BY (tx_id, index_block_hash, microblock_hash, event_index)
SETTINGS non_replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS stx_lock_events (
  tx_id String,
  index_block_hash String,
  microblock_hash String,
  event_index UInt32,
  block_height UInt32,
  tx_index UInt32,
  locked_amount UInt128,
  unlock_height UInt64,
  locked_address String,
  contract_name String
) ENGINE = ReplacingMergeTree
ORDER BY (tx_id, index_block_hash, microblock_hash, event_index)
SETTINGS non_replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS ft_events (
  tx_id String,
  index_block_hash String,
  microblock_hash String,
  event_index UInt32,
  block_height UInt32,
  tx_index UInt32,
  asset_event_type LowCardinality(String),
  asset_identifier String,
  sender String,
  recipient String,
  amount UInt128
) ENGINE = ReplacingMergeTree
ORDER BY (tx_id, index_block_hash, microblock_hash, event_index)
SETTINGS non_replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS nft_events (
  tx_id String,
  index_block_hash String,
  microblock_hash String,
  event_index UInt32,
  block_height UInt32,
  tx_index UInt32,
  asset_event_type LowCardinality(String),
  asset_identifier String,
  sender String,
  recipient String,
  -- Serialized Clarity value of the token id, 0x hex.
  value String
) ENGINE = ReplacingMergeTree
ORDER BY (tx_id, index_block_hash, microblock_hash, event_index)
SETTINGS non_replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS contract_logs (
  tx_id String,
  index_block_hash String,
  microblock_hash String,
  event_index UInt32,
  block_height UInt32,
  tx_index UInt32,
  contract_identifier String,
  topic String,
  -- Serialized Clarity value, 0x hex.
  value String
) ENGINE = ReplacingMergeTree
ORDER BY (tx_id, index_block_hash, microblock_hash, event_index)
SETTINGS non_replicated_deduplication_window = 1000;

-- Deployed contracts (one row per deploy tx inclusion).
CREATE TABLE IF NOT EXISTS contracts (
  contract_id String,
  tx_id String,
  index_block_hash String,
  microblock_hash String,
  block_height UInt32,
  clarity_version Nullable(UInt8),
  source_code String,
  -- contract_abi / contract_interface from the node, as JSON text.
  abi Nullable(String)
) ENGINE = ReplacingMergeTree
ORDER BY (contract_id, index_block_hash, microblock_hash)
SETTINGS non_replicated_deduplication_window = 1000;

-- PoX-2/3/4 operations decoded from the boot contracts' print events.
CREATE TABLE IF NOT EXISTS pox_events (
  pox_version LowCardinality(String),
  block_height UInt32,
  tx_index UInt32,
  event_index UInt32,
  tx_id String,
  index_block_hash String,
  microblock_hash String,
  name LowCardinality(String),
  stacker String,
  locked UInt128,
  balance UInt128,
  burnchain_unlock_height UInt64,
  -- The printed tuple's `data` fields, decoded, as JSON.
  data String
) ENGINE = ReplacingMergeTree
ORDER BY (pox_version, block_height, tx_index, event_index, index_block_hash, microblock_hash)
SETTINGS non_replicated_deduplication_window = 1000;
