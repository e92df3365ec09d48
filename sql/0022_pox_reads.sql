-- PoX reads: the reward set of each cycle (from the Nakamoto block that announces it) and PoX-2/3/4
-- operations read by the pool they delegate to or by the cycles they cover.

-- One row per block announcing a cycle's reward set; a fork may announce it again (the canonical
-- block's row counts).
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

-- Stores made before this migration: the reward sets the blocks table kept.
INSERT INTO pox_cycles (cycle_number, index_block_hash, block_height, total_weight, total_stacked_amount, total_signers)
SELECT cycle_number, index_block_hash, any(block_height),
       sum(JSONExtractUInt(s, 'weight')), sum(toUInt128(JSONExtractString(s, 'stacked_amt'))), count()
FROM (SELECT assumeNotNull(cycle_number) AS cycle_number, index_block_hash, block_height, arrayJoin(JSONExtractArrayRaw(assumeNotNull(reward_set), 'signers')) AS s
      FROM blocks WHERE reward_set IS NOT NULL AND cycle_number IS NOT NULL LIMIT 1 BY index_block_hash, s)
GROUP BY cycle_number, index_block_hash;

INSERT INTO pox_signers (cycle_number, index_block_hash, block_height, signing_key, weight, stacked_amount, weight_percent, stacked_amount_percent)
SELECT s.cycle_number, s.index_block_hash, s.block_height, s.signing_key, s.weight, s.stacked,
       if(c.total_weight = 0, 0, s.weight / c.total_weight * 100),
       if(c.total_stacked_amount = 0, 0, toFloat64(toDecimal256(s.stacked, 20) / toDecimal256(c.total_stacked_amount, 0) * 100))
FROM (SELECT assumeNotNull(cycle_number) AS cycle_number, index_block_hash, block_height,
             concat('0x', JSONExtractString(j, 'signing_key')) AS signing_key, JSONExtractUInt(j, 'weight') AS weight, toUInt128(JSONExtractString(j, 'stacked_amt')) AS stacked
      FROM (SELECT cycle_number, index_block_hash, block_height, arrayJoin(JSONExtractArrayRaw(assumeNotNull(reward_set), 'signers')) AS j
            FROM blocks WHERE reward_set IS NOT NULL AND cycle_number IS NOT NULL LIMIT 1 BY index_block_hash, j)) AS s
INNER JOIN pox_cycles AS c ON c.cycle_number = s.cycle_number AND c.index_block_hash = s.index_block_hash;

-- PoX operation fields the reads filter on, taken from the printed data (sql/0002 pox_events.data).
ALTER TABLE pox_events
  ADD COLUMN IF NOT EXISTS delegate_to String MATERIALIZED JSONExtractString(data, 'delegate-to'),
  ADD COLUMN IF NOT EXISTS start_cycle_id UInt64 MATERIALIZED toUInt64OrZero(JSONExtractString(data, 'start-cycle-id')),
  ADD COLUMN IF NOT EXISTS end_cycle_id UInt64 MATERIALIZED toUInt64OrZero(JSONExtractString(data, 'end-cycle-id'));

ALTER TABLE pox_events MATERIALIZE COLUMN delegate_to;

ALTER TABLE pox_events MATERIALIZE COLUMN start_cycle_id;

ALTER TABLE pox_events MATERIALIZE COLUMN end_cycle_id;

-- A pool's delegations, and the operations whose lock covers a cycle (they end after it), by key.
ALTER TABLE pox_events MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild';

ALTER TABLE pox_events ADD PROJECTION IF NOT EXISTS pox_events_by_delegate (
  SELECT pox_version, block_height, tx_index, event_index, tx_id, index_block_hash, microblock_hash, name, stacker, locked, balance, burnchain_unlock_height, data, delegate_to, start_cycle_id, end_cycle_id
  ORDER BY pox_version, delegate_to, block_height, tx_index, event_index
);

ALTER TABLE pox_events ADD PROJECTION IF NOT EXISTS pox_events_by_end_cycle (
  SELECT pox_version, block_height, tx_index, event_index, tx_id, index_block_hash, microblock_hash, name, stacker, locked, balance, burnchain_unlock_height, data, delegate_to, start_cycle_id, end_cycle_id
  ORDER BY pox_version, end_cycle_id, block_height, tx_index, event_index
);

ALTER TABLE pox_events MATERIALIZE PROJECTION pox_events_by_delegate;

ALTER TABLE pox_events MATERIALIZE PROJECTION pox_events_by_end_cycle;
