-- Analytics over the canonical chain's full history (/extended/analytics/v1, src/http/analytics/).
--
-- Each block's contribution is computed once, when it is decoded (src/workers/analytics-changes.ts),
-- and kept as facts (analytics_changes). The processor adds it, bucketed by hour, day and PoX cycle,
-- to analytics_by_bucket when the block becomes canonical and adds it negated when it is orphaned
-- (src/ingest/processor/analytics.ts): signed deltas, as balances are. A materialized view copies
-- the keyed kinds into analytics_by_key, sorted by their key first. Both are SummingMergeTree: a
-- reorg's rows sum away, and an answer reads one row per bucket and key instead of every tx.
--
-- Kinds (a / b / c; n and amount are summed):
--   tx        type_id / '' or 'failed' / '' or 'micro'     txs (n), fees in µSTX (amount)
--   ptx       principal (sender or fee payer)               txs it sent (n), fees it paid (amount)
--   deploy    -                                             contracts deployed by successful txs (n)
--   stx_xfer  -                                             STX transfer events (n), µSTX moved (amount)
--   block     - / '1' when the parent's time is known      blocks (n), seconds since the parent (amount)
--   call      contract / function                          contract-call txs (n), their fees (amount)
--   caller    contract / sender                            contract-call txs (n)
--   cevents   contract                                     print events it emitted (n)
--   ft        asset / transfer|mint|burn                   events (n), amount
--   nft       asset / transfer|mint|burn                   events (n)
--   flow_in   principal / asset ('stx' or an FT) / sender  transfers received (n), amount
--   flow_out  principal / asset / recipient                transfers sent (n), amount
--   hold      FT asset / principal                         balance change (amount)
--   pbal      principal / 'stx'                            STX balance change (amount)
-- Units: 'hour' (bucket = unix time of the hour; chain kinds tx, ptx, deploy, stx_xfer, block only),
-- 'day' (unix time of the UTC day), 'cycle' (PoX reward cycle of the block's burn height).

-- What each block changes (facts: the processor reads them back to undo a block on a reorg).
CREATE TABLE IF NOT EXISTS analytics_changes (
  index_block_hash String,
  kind LowCardinality(String),
  a String,
  b String,
  c String,
  n Int64,
  amount Int128
) ENGINE = ReplacingMergeTree
ORDER BY (index_block_hash, kind, a, b, c)
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000;

-- Canonical totals per unit, kind and bucket (a bucket range of a kind is one key range).
CREATE TABLE IF NOT EXISTS analytics_by_bucket (
  unit LowCardinality(String),
  kind LowCardinality(String),
  bucket UInt32,
  a String,
  b String,
  c String,
  n Int64,
  amount Int128
) ENGINE = SummingMergeTree
ORDER BY (unit, kind, bucket, a, b, c)
SETTINGS non_replicated_deduplication_window = 1000;

-- The same totals of the kinds read by one key (a contract, an asset, a principal), key first; by
-- day and cycle only.
CREATE TABLE IF NOT EXISTS analytics_by_key (
  unit LowCardinality(String),
  kind LowCardinality(String),
  a String,
  bucket UInt32,
  b String,
  c String,
  n Int64,
  amount Int128
) ENGINE = SummingMergeTree
ORDER BY (unit, kind, a, bucket, b, c)
SETTINGS non_replicated_deduplication_window = 1000;

-- A redone batch's insert is dropped by its token before it reaches the view, so nothing doubles.
CREATE MATERIALIZED VIEW IF NOT EXISTS analytics_by_key_mv TO analytics_by_key AS
SELECT unit, kind, a, bucket, b, c, n, amount FROM analytics_by_bucket
WHERE kind IN ('ptx', 'call', 'caller', 'ft', 'nft', 'flow_in', 'flow_out', 'hold', 'pbal') AND unit != 'hour';
