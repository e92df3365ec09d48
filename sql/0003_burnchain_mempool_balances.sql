-- Burn chain (Bitcoin) blocks and PoX rewards, the mempool, running balances, and signer traffic.

-- One row per /new_burn_block delivery. A burnchain fork re-delivers a height with another hash;
-- the newest delivery (highest log_id) at a height is canonical.
CREATE TABLE IF NOT EXISTS burn_blocks (
  burn_block_height UInt32,
  burn_block_hash String,
  burn_block_time UInt32,
  burn_amount UInt64,
  consensus_hash String,
  parent_burn_block_hash String,
  log_id UInt64
) ENGINE = ReplacingMergeTree
ORDER BY (burn_block_height, burn_block_hash)
SETTINGS non_replicated_deduplication_window = 1000;

-- A PoX reward address's rewards and reward slots are read by key through projections ordered by
-- the address, never by scanning every burn block's rows.
CREATE TABLE IF NOT EXISTS burn_rewards (
  burn_block_height UInt32,
  burn_block_hash String,
  reward_index UInt32,
  reward_recipient String,
  reward_amount UInt64,
  burn_amount UInt64,
  PROJECTION burn_rewards_by_recipient (SELECT * ORDER BY reward_recipient, burn_block_height, reward_index)
) ENGINE = ReplacingMergeTree
ORDER BY (burn_block_height, burn_block_hash, reward_index)
SETTINGS non_replicated_deduplication_window = 1000, deduplicate_merge_projection_mode = 'rebuild';

CREATE TABLE IF NOT EXISTS reward_slot_holders (
  burn_block_height UInt32,
  burn_block_hash String,
  slot_index UInt32,
  address String,
  PROJECTION reward_slot_holders_by_address (SELECT * ORDER BY address, burn_block_height, slot_index)
) ENGINE = ReplacingMergeTree
ORDER BY (burn_block_height, burn_block_hash, slot_index)
SETTINGS non_replicated_deduplication_window = 1000, deduplicate_merge_projection_mode = 'rebuild';

-- Every transaction ever seen unconfirmed (/new_mempool_tx, or returned from an orphaned block).
CREATE TABLE IF NOT EXISTS mempool_txs (
  tx_id String CODEC(ZSTD(1)),
  raw_tx String CODEC(ZSTD(1)),
  receipt_time UInt32,
  sender_address String CODEC(ZSTD(1)),
  sponsor_address String CODEC(ZSTD(1)),
  nonce UInt64,
  fee_rate UInt128,
  type_id LowCardinality(String),
  contract_id String CODEC(ZSTD(1)),
  function_name String CODEC(ZSTD(1)),
  log_id UInt64
) ENGINE = ReplacingMergeTree
ORDER BY tx_id
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000;

-- Mempool state of a tx over time: pending, dropped (with the node's reason), or confirmed (mined in
-- a canonical block). Newest version wins.
CREATE TABLE IF NOT EXISTS mempool_status (
  tx_id String CODEC(ZSTD(1)),
  status Enum8('pending' = 1, 'dropped' = 2, 'confirmed' = 3),
  reason LowCardinality(String),
  replaced_by String CODEC(ZSTD(1)),
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY tx_id
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000;

-- The current pending mempool, so that reads of it do not group every tx ever seen (mempool_status
-- keeps that whole history, one row per status change). A batch writes the net change of the
-- pending set: is_deleted = 1 when a tx left it (confirmed, dropped). FINAL hides those, and the
-- processor's periodic OPTIMIZE ... FINAL CLEANUP removes them, so the table stays about the size of
-- the node's mempool. mempool_status stays the authority: readers take candidates from here and
-- their status from there.
CREATE TABLE IF NOT EXISTS mempool_pending (
  tx_id String,
  -- Every principal the tx names (sender, sponsor, recipient, called or deployed contract): one
  -- principal's pending txs are filtered in this small table.
  principals Array(String),
  version UInt64,
  is_deleted UInt8
) ENGINE = ReplacingMergeTree(version, is_deleted)
ORDER BY tx_id
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000, allow_experimental_replacing_merge_with_cleanup = 1;

-- Running balances of the canonical chain as signed deltas: a block that becomes canonical adds its
-- changes, an orphaned one adds them negated. Summing folds them; a balance is one key lookup (v2
-- balance routes, search, Rosetta).
CREATE TABLE IF NOT EXISTS balances (
  principal String CODEC(ZSTD(1)),
  asset String CODEC(ZSTD(1)),
  balance Int128,
  total_sent Int128,
  total_received Int128,
  total_fees_sent Int128,
  total_miner_rewards Int128
) ENGINE = SummingMergeTree
ORDER BY (principal, asset)
SETTINGS non_replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS stackerdb_chunks (
  log_id UInt64,
  contract_id String,
  slot_id UInt32,
  slot_version UInt32,
  sig String,
  data String,
  received_at DateTime64(3, 'UTC')
) ENGINE = ReplacingMergeTree
ORDER BY (contract_id, slot_id, slot_version, log_id)
SETTINGS non_replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS block_proposal_responses (
  log_id UInt64,
  signer_signature_hash String,
  result LowCardinality(String),
  reason String,
  reason_code String,
  payload String,
  received_at DateTime64(3, 'UTC')
) ENGINE = ReplacingMergeTree
ORDER BY (signer_signature_hash, log_id)
SETTINGS non_replicated_deduplication_window = 1000;

-- Attachments (BNS zonefiles), read by the name event's tx.
CREATE TABLE IF NOT EXISTS attachments (
  tx_id String,
  index_block_hash String,
  attachment_index UInt32,
  block_height UInt32,
  content_hash String,
  contract_id String,
  metadata String,
  content String
) ENGINE = ReplacingMergeTree
ORDER BY (tx_id, index_block_hash, attachment_index)
SETTINGS non_replicated_deduplication_window = 1000;

-- Log entries the decoder found malformed (the observer answers those 400 up front; an imported
-- log can still contain them). Kept so nothing is skipped silently.
CREATE TABLE IF NOT EXISTS rejected_events (
  log_id UInt64,
  path String,
  reason String
) ENGINE = ReplacingMergeTree
ORDER BY log_id
SETTINGS non_replicated_deduplication_window = 1000;
