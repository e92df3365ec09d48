-- Event counts a list total needs, held as signed deltas instead of counted per request
-- (src/ingest/processor/running-totals.ts). name 'nft_mints': an asset's NFT mints (key: the asset
-- identifier).

-- What each block changed (facts: read back to undo a block on a reorg).
CREATE TABLE IF NOT EXISTS count_changes (
  index_block_hash String,
  name LowCardinality(String),
  key String,
  n Int64
) ENGINE = ReplacingMergeTree
ORDER BY (index_block_hash, name, key)
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000;

-- The canonical chain's counts: a canonical block adds its changes, an orphaned one negates them.
CREATE TABLE IF NOT EXISTS running_counts (
  name LowCardinality(String),
  key String,
  n Int64
) ENGINE = SummingMergeTree
ORDER BY (name, key)
SETTINGS non_replicated_deduplication_window = 1000;

-- Stores made before this migration: the mints their NFT events hold (block 1's include the
-- relabelled boot receipts, stored under block 1), then the canonical blocks' sums.
INSERT INTO count_changes (index_block_hash, name, key, n)
SELECT index_block_hash, 'nft_mints', asset_identifier, count()
FROM (SELECT index_block_hash, asset_identifier FROM nft_events WHERE index_block_hash != '' AND asset_event_type = 'mint'
      LIMIT 1 BY tx_id, index_block_hash, microblock_hash, event_index)
GROUP BY index_block_hash, asset_identifier;

INSERT INTO running_counts (name, key, n)
SELECT name, key, sum(n) FROM (SELECT * FROM count_changes LIMIT 1 BY index_block_hash, name, key)
WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE canonical = 1)
GROUP BY name, key;
