-- Chain facts and the canonical overlay (data layout 2; see README "Data layout").
--
-- ClickHouse keeps what filters, scans and aggregates need; point reads and per-principal pages are
-- answered from the serving store (src/serving), and what a reorg undoes of a block is decoded again
-- from the block's event-log entry (src/ingest/processor/context.ts), so no per-block undo facts are
-- stored. Every table and projection here has a reader named beside it.
--
-- Facts are append-only and never rewritten by a fork: a block, a transaction as included in one
-- block (or microblock), an event. Whether a block or microblock is on the canonical chain lives
-- in the small *_canonical overlay tables, versioned by the event-log id that decided it
-- (ReplacingMergeTree(version): the newest row per key wins). Fact rows decoded from a payload
-- carry no log position (decoding is a pure function of the payload); `log_id` appears where the
-- processor writes a row and its position matters. Hashes are 0x-prefixed lowercase hex; amounts
-- are 128-bit integers. Every table accepts the per-batch insert_deduplication_token, so
-- re-processing a batch after a crash leaves one copy.
--
-- Text columns of the larger tables are ZSTD(1)-compressed: hashes as hex and c32 principals carry
-- 4-5 bits per character, which ZSTD's entropy coding keeps and LZ4 does not (principal_txs of the
-- 100k-tx log: 29.8 MiB with LZ4, 15.1 MiB with ZSTD(1), for ~8% more insert CPU).

-- Blocks, read by hash (chain load at start-up, block routes the store does not answer, Rosetta)
-- and by height. The projection keyed by the block hash turns a search by block hash into a key read.
CREATE TABLE IF NOT EXISTS blocks (
  index_block_hash String CODEC(ZSTD(1)),
  block_hash String CODEC(ZSTD(1)),
  block_height UInt32,
  parent_index_block_hash String CODEC(ZSTD(1)),
  parent_block_hash String CODEC(ZSTD(1)),
  parent_microblock_hash String CODEC(ZSTD(1)),
  parent_microblock_sequence Int32,
  burn_block_hash String CODEC(ZSTD(1)),
  burn_block_height UInt32,
  burn_block_time UInt32,
  parent_burn_block_hash String CODEC(ZSTD(1)),
  parent_burn_block_height UInt32,
  parent_burn_block_time UInt32,
  miner_txid String CODEC(ZSTD(1)),
  -- Nakamoto header timestamp; for epoch 2.x blocks the burn block time.
  block_time UInt32,
  -- -1: a Nakamoto block whose payload did not say.
  tenure_height Int32,
  consensus_hash String CODEC(ZSTD(1)),
  execution_cost_read_count UInt64,
  execution_cost_read_length UInt64,
  execution_cost_runtime UInt64,
  execution_cost_write_count UInt64,
  execution_cost_write_length UInt64,
  -- Transactions of this block in the reference API's order: anchored ones by tx_index descending,
  -- then those of confirmed microblocks likewise; tx_microblock_hashes is parallel ('' = anchored).
  tx_ids Array(String) CODEC(ZSTD(1)),
  tx_microblock_hashes Array(String) CODEC(ZSTD(1)),
  -- Transactions the block itself carried (tx_ids may also hold relabelled boot receipts).
  tx_count UInt32,
  signer_bitvec Nullable(String) CODEC(ZSTD(1)),
  signer_signatures Array(String) CODEC(ZSTD(1)),
  signer_signature_hash String CODEC(ZSTD(1)),
  miner_signature String CODEC(ZSTD(1)),
  cycle_number Nullable(UInt32),
  reward_set Nullable(String) CODEC(ZSTD(1)),
  pox_v1_unlock_height UInt32,
  pox_v2_unlock_height UInt32,
  pox_v3_unlock_height UInt32,
  pox_v4_unlock_height UInt32,
  PROJECTION blocks_by_block_hash (SELECT block_hash, index_block_hash ORDER BY block_hash)
) ENGINE = ReplacingMergeTree
ORDER BY index_block_hash
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000, deduplicate_merge_projection_mode = 'rebuild';

-- Which block is canonical at each height. A reorg writes a few rows here, not millions elsewhere.
CREATE TABLE IF NOT EXISTS block_canonical (
  block_height UInt32,
  index_block_hash String CODEC(ZSTD(1)),
  block_hash String CODEC(ZSTD(1)),
  canonical UInt8,
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY (block_height, index_block_hash)
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000;

-- Epoch 2.x microblocks: streamed after an anchor block, confirmed (accepted) by a later block.
CREATE TABLE IF NOT EXISTS microblocks (
  microblock_hash String CODEC(ZSTD(1)),
  microblock_sequence UInt16,
  microblock_parent_hash String CODEC(ZSTD(1)),
  parent_index_block_hash String CODEC(ZSTD(1)),
  block_height UInt32,
  parent_block_height UInt32,
  parent_block_hash String CODEC(ZSTD(1)),
  parent_burn_block_hash String CODEC(ZSTD(1)),
  parent_burn_block_height UInt32,
  parent_burn_block_time UInt32,
  tx_ids Array(String) CODEC(ZSTD(1)),
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
--
-- Sorted in chain order, which is the order rows arrive in (an import's insert sorts nearly sorted
-- rows, and parts merge once), and the order the chain-wide tx lists read newest first with
-- filters on type, sender, called contract/function, nonce, time and fee (src/http/tx/lists.ts). A
-- read by tx_id finds its granules through the bloom filter (the serving store answers tx by id).
-- event_tables: which event tables hold the tx's events (bit set: 1 stx_events, 2 stx_lock_events,
-- 4 ft_events, 8 nft_events, 16 contract_logs; src/workers/event-tables.ts), so a tx's events are
-- read from those tables only.
CREATE TABLE IF NOT EXISTS txs (
  tx_id String CODEC(ZSTD(1)),
  index_block_hash String CODEC(ZSTD(1)),
  microblock_hash String CODEC(ZSTD(1)),
  block_hash String CODEC(ZSTD(1)),
  block_height UInt32,
  burn_block_time UInt32,
  burn_block_height UInt32,
  parent_burn_block_time UInt32,
  block_time UInt32,
  parent_block_hash String CODEC(ZSTD(1)),
  parent_index_block_hash String CODEC(ZSTD(1)),
  microblock_sequence UInt32,
  microblock_parent_hash String CODEC(ZSTD(1)),
  tx_index UInt32,
  status LowCardinality(String),
  raw_tx String CODEC(ZSTD(1)),
  raw_result String CODEC(ZSTD(1)),
  type_id LowCardinality(String),
  sender_address String CODEC(ZSTD(1)),
  sponsor_address String CODEC(ZSTD(1)),
  nonce UInt64,
  fee_rate UInt128,
  contract_id String CODEC(ZSTD(1)),
  function_name String CODEC(ZSTD(1)),
  event_count UInt32,
  event_tables UInt8 DEFAULT 31,
  execution_cost_read_count UInt64,
  execution_cost_read_length UInt64,
  execution_cost_runtime UInt64,
  execution_cost_write_count UInt64,
  execution_cost_write_length UInt64,
  vm_error Nullable(String) CODEC(ZSTD(1)),
  -- Bitcoin-originated txs (raw_tx 0x00): the node's burnchain_op object, as JSON.
  burnchain_op Nullable(String) CODEC(ZSTD(1)),
  INDEX txs_tx_id tx_id TYPE bloom_filter(0.001) GRANULARITY 1
) ENGINE = ReplacingMergeTree
ORDER BY (block_height, microblock_sequence, tx_index, tx_id, index_block_hash, microblock_hash)
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000;

-- Address history: one row per (principal, tx) for every principal a tx touches (sender, sponsor,
-- recipient, contract, event parties), read for address lists the serving store does not answer
-- (at a height, until a block, unanchored). Ordered for newest-first pages of one principal;
-- tx_id joins the key because block 1's own txs and the relabelled boot receipts share tx_index.
-- roles: how the principal takes part (bit set, src/stacks/roles.ts ROLE): the
-- reference's address lists differ in which relations they count (v1 /transactions: tx parties and
-- STX events; with_transfers: no sponsor; v2: also FT/NFT events).
CREATE TABLE IF NOT EXISTS principal_txs (
  principal String CODEC(ZSTD(1)),
  block_height UInt32,
  microblock_sequence UInt32,
  tx_index UInt32,
  tx_id String CODEC(ZSTD(1)),
  index_block_hash String CODEC(ZSTD(1)),
  microblock_hash String CODEC(ZSTD(1)),
  -- What the principal did in it, for the with_transfers views.
  stx_sent UInt128,
  stx_received UInt128,
  roles UInt8 DEFAULT 0
) ENGINE = ReplacingMergeTree
ORDER BY (principal, block_height, microblock_sequence, tx_index, index_block_hash, microblock_hash, tx_id)
SETTINGS non_replicated_deduplication_window = 1000;

-- The node's per-block reward maturity report (Rosetta's block rewards, in the order the node
-- reported them: reward_index, the position in matured_miner_rewards, joins the key because one
-- block can pay the same recipient twice from the same parent).
CREATE TABLE IF NOT EXISTS miner_rewards (
  index_block_hash String CODEC(ZSTD(1)),
  block_height UInt32,
  from_index_block_hash String CODEC(ZSTD(1)),
  from_stacks_block_hash String CODEC(ZSTD(1)),
  recipient String CODEC(ZSTD(1)),
  miner_address String CODEC(ZSTD(1)),
  coinbase_amount UInt128,
  tx_fees_anchored UInt128,
  tx_fees_streamed_confirmed UInt128,
  tx_fees_streamed_produced UInt128,
  reward_index UInt32
) ENGINE = ReplacingMergeTree
ORDER BY (index_block_hash, recipient, from_index_block_hash, reward_index)
SETTINGS non_replicated_deduplication_window = 1000;
