-- Transaction events, one table per kind, as facts of (tx_id, the block/microblock that included
-- the tx, event_index). event_index is renumbered 0..n-1 per tx in the node's event order, as the
-- reference API does. Only events of successful txs are kept (the node also reports those of
-- aborted txs with committed=false; they had no effect). Read by tx (a tx's events, the event
-- lists the serving store does not answer) and through the projections below by what the engine-only
-- routes filter on.

CREATE TABLE IF NOT EXISTS stx_events (
  tx_id String CODEC(ZSTD(1)),
  index_block_hash String CODEC(ZSTD(1)),
  microblock_hash String CODEC(ZSTD(1)),
  event_index UInt32,
  block_height UInt32,
  tx_index UInt32,
  -- transfer | mint | burn
  asset_event_type LowCardinality(String),
  sender String CODEC(ZSTD(1)),
  recipient String CODEC(ZSTD(1)),
  amount UInt128,
  memo String CODEC(ZSTD(1))
) ENGINE = ReplacingMergeTree
ORDER BY (tx_id, index_block_hash, microblock_hash, event_index)
SETTINGS non_replicated_deduplication_window = 1000;

-- Locks that end at a burn height: a block's STX unlocks (Rosetta) are read by unlock height.
CREATE TABLE IF NOT EXISTS stx_lock_events (
  tx_id String CODEC(ZSTD(1)),
  index_block_hash String CODEC(ZSTD(1)),
  microblock_hash String CODEC(ZSTD(1)),
  event_index UInt32,
  block_height UInt32,
  tx_index UInt32,
  locked_amount UInt128,
  unlock_height UInt64,
  locked_address String CODEC(ZSTD(1)),
  contract_name String CODEC(ZSTD(1)),
  PROJECTION stx_lock_events_by_unlock (
    SELECT tx_id, index_block_hash, microblock_hash, event_index, block_height, tx_index, locked_amount, unlock_height, locked_address, contract_name
    ORDER BY contract_name, unlock_height
  )
) ENGINE = ReplacingMergeTree
ORDER BY (tx_id, index_block_hash, microblock_hash, event_index)
SETTINGS non_replicated_deduplication_window = 1000, deduplicate_merge_projection_mode = 'rebuild';

CREATE TABLE IF NOT EXISTS ft_events (
  tx_id String CODEC(ZSTD(1)),
  index_block_hash String CODEC(ZSTD(1)),
  microblock_hash String CODEC(ZSTD(1)),
  event_index UInt32,
  block_height UInt32,
  tx_index UInt32,
  asset_event_type LowCardinality(String),
  asset_identifier String CODEC(ZSTD(1)),
  sender String CODEC(ZSTD(1)),
  recipient String CODEC(ZSTD(1)),
  amount UInt128
) ENGINE = ReplacingMergeTree
ORDER BY (tx_id, index_block_hash, microblock_hash, event_index)
SETTINGS non_replicated_deduplication_window = 1000;

-- NFT events by token: one token's history (asset, value), and an asset's mints
-- (/extended/v1/tokens/nft/history and /mints).
CREATE TABLE IF NOT EXISTS nft_events (
  tx_id String CODEC(ZSTD(1)),
  index_block_hash String CODEC(ZSTD(1)),
  microblock_hash String CODEC(ZSTD(1)),
  event_index UInt32,
  block_height UInt32,
  tx_index UInt32,
  asset_event_type LowCardinality(String),
  asset_identifier String CODEC(ZSTD(1)),
  sender String CODEC(ZSTD(1)),
  recipient String CODEC(ZSTD(1)),
  -- Serialized Clarity value of the token id, 0x hex.
  value String CODEC(ZSTD(1)),
  PROJECTION nft_events_by_token (SELECT * ORDER BY asset_identifier, value, block_height, tx_index, event_index),
  PROJECTION nft_events_by_asset_event_type (SELECT * ORDER BY asset_identifier, asset_event_type, block_height, tx_index, event_index)
) ENGINE = ReplacingMergeTree
ORDER BY (tx_id, index_block_hash, microblock_hash, event_index)
SETTINGS non_replicated_deduplication_window = 1000, deduplicate_merge_projection_mode = 'rebuild';

-- /extended/v1/tx/events?address=<contract> and /contract/:id/events list a contract's print
-- events; a contract_logs row is keyed by tx, so a projection by the printing contract answers them.
CREATE TABLE IF NOT EXISTS contract_logs (
  tx_id String CODEC(ZSTD(1)),
  index_block_hash String CODEC(ZSTD(1)),
  microblock_hash String CODEC(ZSTD(1)),
  event_index UInt32,
  block_height UInt32,
  tx_index UInt32,
  contract_identifier String CODEC(ZSTD(1)),
  topic String CODEC(ZSTD(1)),
  -- Serialized Clarity value, 0x hex.
  value String CODEC(ZSTD(1)),
  PROJECTION contract_logs_by_contract (
    SELECT tx_id, index_block_hash, microblock_hash, event_index, block_height, tx_index, contract_identifier
    ORDER BY contract_identifier, block_height, tx_index, event_index
  )
) ENGINE = ReplacingMergeTree
ORDER BY (tx_id, index_block_hash, microblock_hash, event_index)
SETTINGS non_replicated_deduplication_window = 1000, deduplicate_merge_projection_mode = 'rebuild';

-- Deployed contracts (one row per deploy tx inclusion).
CREATE TABLE IF NOT EXISTS contracts (
  contract_id String,
  tx_id String,
  index_block_hash String,
  microblock_hash String,
  block_height UInt32,
  clarity_version Nullable(UInt8),
  source_code String CODEC(ZSTD(1)),
  -- contract_abi / contract_interface from the node, as JSON text.
  abi Nullable(String) CODEC(ZSTD(1))
) ENGINE = ReplacingMergeTree
ORDER BY (contract_id, index_block_hash, microblock_hash)
SETTINGS non_replicated_deduplication_window = 1000;

-- PoX-2/3/4 operations decoded from the boot contracts' print events, with the fields the reads
-- filter on taken from the printed data (`data`, JSON): a pool's delegations (delegate_to), the
-- operations whose lock covers a cycle (end_cycle_id), and the lock an operation leaves its stacker
-- with, corrected as src/stacks/roles.ts poxLockState does (stack-stx / delegate-stack-stx:
-- the lock amount and unlock height; an increase adds to the amount; an extend sets the unlock
-- height) for the STX unlocks of a block (Rosetta), each read through its projection.
CREATE TABLE IF NOT EXISTS pox_events (
  pox_version LowCardinality(String),
  block_height UInt32,
  tx_index UInt32,
  event_index UInt32,
  tx_id String CODEC(ZSTD(1)),
  index_block_hash String CODEC(ZSTD(1)),
  microblock_hash String CODEC(ZSTD(1)),
  name LowCardinality(String),
  stacker String CODEC(ZSTD(1)),
  locked UInt128,
  balance UInt128,
  burnchain_unlock_height UInt64,
  data String CODEC(ZSTD(1)),
  delegate_to String MATERIALIZED JSONExtractString(data, 'delegate-to'),
  start_cycle_id UInt64 MATERIALIZED toUInt64OrZero(JSONExtractString(data, 'start-cycle-id')),
  end_cycle_id UInt64 MATERIALIZED toUInt64OrZero(JSONExtractString(data, 'end-cycle-id')),
  lock_amount UInt128 MATERIALIZED multiIf(
    name IN ('stack-stx', 'delegate-stack-stx'), ifNull(toUInt128OrNull(JSONExtractString(data, 'lock-amount')), locked),
    name IN ('stack-increase', 'delegate-stack-increase'), locked + ifNull(toUInt128OrNull(JSONExtractString(data, 'increase-by')), toUInt128(0)),
    locked),
  lock_unlock_height UInt64 MATERIALIZED if(
    name IN ('stack-stx', 'delegate-stack-stx', 'stack-extend', 'delegate-stack-extend'),
    ifNull(toUInt64OrNull(JSONExtractString(data, 'unlock-burn-height')), burnchain_unlock_height),
    burnchain_unlock_height),
  PROJECTION pox_events_by_delegate (
    SELECT pox_version, block_height, tx_index, event_index, tx_id, index_block_hash, microblock_hash, name, stacker, locked, balance, burnchain_unlock_height, data, delegate_to, start_cycle_id, end_cycle_id
    ORDER BY pox_version, delegate_to, block_height, tx_index, event_index
  ),
  PROJECTION pox_events_by_end_cycle (
    SELECT pox_version, block_height, tx_index, event_index, tx_id, index_block_hash, microblock_hash, name, stacker, locked, balance, burnchain_unlock_height, data, delegate_to, start_cycle_id, end_cycle_id
    ORDER BY pox_version, end_cycle_id, block_height, tx_index, event_index
  ),
  PROJECTION pox_events_by_unlock (
    SELECT pox_version, block_height, tx_index, event_index, tx_id, index_block_hash, microblock_hash, name, stacker, lock_amount, lock_unlock_height
    ORDER BY pox_version, lock_unlock_height
  )
) ENGINE = ReplacingMergeTree
ORDER BY (pox_version, block_height, tx_index, event_index, index_block_hash, microblock_hash)
SETTINGS non_replicated_deduplication_window = 1000, deduplicate_merge_projection_mode = 'rebuild';
