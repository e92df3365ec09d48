-- Small tables of the secondary route families: the STX supply, PoX cycles' reward sets, the
-- contract function index, token holders and running event counts. Running totals are signed deltas:
-- a block that becomes canonical adds what it changed, an orphaned one adds it negated
-- (src/ingest/processor/running-totals.ts, holders.ts); the block's part is decoded again from its
-- event-log entry when a reorg undoes a block no longer in memory.

-- The STX supply as the reference counts it: STX minted minus STX burned by canonical events, plus
-- the coinbase of the miner rewards matured by canonical blocks. Supply as of height h = sum over
-- block_height <= h (one row per height once merged).
CREATE TABLE IF NOT EXISTS stx_supply (
  block_height UInt32,
  amount Int128
) ENGINE = SummingMergeTree
ORDER BY block_height
SETTINGS non_replicated_deduplication_window = 1000;

-- One row per block announcing a cycle's reward set (from the Nakamoto block that announces it); a
-- fork may announce it again (the canonical block's row counts).
CREATE TABLE IF NOT EXISTS pox_cycles (
  cycle_number UInt32,
  index_block_hash String,
  block_height UInt32,
  total_weight UInt64,
  total_stacked_amount UInt128,
  total_signers UInt32
) ENGINE = ReplacingMergeTree
ORDER BY (cycle_number, index_block_hash)
SETTINGS non_replicated_deduplication_window = 1000;

-- The signers of a cycle's reward set, with their share (percentages as the reference computes them).
CREATE TABLE IF NOT EXISTS pox_signers (
  cycle_number UInt32,
  index_block_hash String,
  block_height UInt32,
  signing_key String,
  weight UInt64,
  stacked_amount UInt128,
  weight_percent Float64,
  stacked_amount_percent Float64
) ENGINE = ReplacingMergeTree
ORDER BY (cycle_number, index_block_hash, signing_key)
SETTINGS non_replicated_deduplication_window = 1000;

-- /contract/by_trait finds the contracts whose ABI has every function of a trait. Candidates come
-- from this index (one row per function name of each successful deploy), read by the trait's
-- function names, instead of scanning every contract's ABI; the full match (access, argument and
-- output types) is then checked on the candidates' ABIs.
CREATE TABLE IF NOT EXISTS contract_functions (
  name String CODEC(ZSTD(1)),
  contract_id String CODEC(ZSTD(1)),
  tx_id String CODEC(ZSTD(1)),
  index_block_hash String CODEC(ZSTD(1)),
  microblock_hash String CODEC(ZSTD(1)),
  block_height UInt32
) ENGINE = ReplacingMergeTree
ORDER BY (name, contract_id, index_block_hash, microblock_hash)
SETTINGS non_replicated_deduplication_window = 1000;

-- An FT's (or STX's) holders by asset: the running balances again, keyed by asset first so that the
-- holders of a token are one key range. `touches` counts every change applied, so no row ever sums
-- away (the reference keeps a row for every principal a change touched, a tx's fee payer at fee 0
-- too).
CREATE TABLE IF NOT EXISTS ft_holders (
  asset String CODEC(ZSTD(1)),
  principal String CODEC(ZSTD(1)),
  balance Int128,
  touches Int64
) ENGINE = SummingMergeTree
ORDER BY (asset, principal)
SETTINGS non_replicated_deduplication_window = 1000;

-- Event counts a list total needs, held instead of counted per request. name 'nft_mints': an
-- asset's NFT mints (key: the asset identifier).
CREATE TABLE IF NOT EXISTS running_counts (
  name LowCardinality(String),
  key String,
  n Int64
) ENGINE = SummingMergeTree
ORDER BY (name, key)
SETTINGS non_replicated_deduplication_window = 1000;
