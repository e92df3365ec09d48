-- The STX supply as the reference counts it: STX minted minus STX burned by canonical events, plus
-- the coinbase of the miner rewards matured by canonical blocks.

-- What each block issued (its mints minus burns, plus the coinbase it matured). Facts: the
-- processor reads them back to undo a block on a reorg.
CREATE TABLE IF NOT EXISTS supply_changes (
  index_block_hash String,
  block_height UInt32,
  amount Int128
) ENGINE = ReplacingMergeTree
ORDER BY index_block_hash
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000;

-- The running supply as signed deltas by height: a block that becomes canonical adds what it
-- issued, an orphaned one adds it negated. Supply as of height h = sum over block_height <= h
-- (one row per height once merged).
CREATE TABLE IF NOT EXISTS stx_supply (
  block_height UInt32,
  amount Int128
) ENGINE = SummingMergeTree
ORDER BY block_height
SETTINGS non_replicated_deduplication_window = 1000;

-- Stores made before this migration: each stored block's issue from its stored events and rewards
-- (block 1's includes the relabelled boot receipts, stored under block 1), then the canonical ones.
-- Inexact where a block matured two rewards of one recipient from one block: miner_rewards (keyed by
-- block, recipient and origin) keep one of them. Re-importing the event log gives the exact supply.
INSERT INTO supply_changes (index_block_hash, block_height, amount)
SELECT index_block_hash, any(block_height), sum(amount)
FROM (
  SELECT index_block_hash, block_height, if(asset_event_type = 'mint', toInt128(amount), -toInt128(amount)) AS amount
  FROM (SELECT * FROM stx_events WHERE index_block_hash != '' AND asset_event_type IN ('mint', 'burn') LIMIT 1 BY tx_id, index_block_hash, microblock_hash, event_index)
  UNION ALL
  SELECT index_block_hash, block_height, toInt128(coinbase_amount) AS amount
  FROM (SELECT * FROM miner_rewards LIMIT 1 BY index_block_hash, recipient, from_index_block_hash)
)
GROUP BY index_block_hash;

INSERT INTO stx_supply (block_height, amount)
SELECT s.block_height, s.amount
FROM (SELECT index_block_hash, any(block_height) AS block_height, any(amount) AS amount FROM supply_changes GROUP BY index_block_hash) AS s
WHERE s.index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE canonical = 1) AND s.amount != 0;
