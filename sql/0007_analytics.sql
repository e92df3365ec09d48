-- Analytics over the canonical chain's full history (/extended/analytics/v1, src/http/analytics/).
--
-- Each block's contribution is computed once, when it is decoded (src/workers/analytics-changes.ts;
-- a reorg decodes an old block again to undo it). The processor adds it, bucketed by hour, day and
-- PoX cycle, when the block becomes canonical and adds it negated when it is orphaned
-- (src/ingest/processor/analytics.ts): signed deltas, as balances are. A batch sums its rows by key
-- and writes each kind into the table its readers read (analytics-rows.ts): kinds read across all
-- keys of a bucket range into analytics_by_bucket, kinds read by one key into analytics_by_key
-- (key first; by day and cycle only). Both are SummingMergeTree: a reorg's rows sum away, and an
-- answer reads one row per bucket and key instead of every tx.
--
-- Kinds (a / b / c; n and amount are summed), and the tables they are kept in (B: by bucket, K: by key):
--   tx        type_id / '' or 'failed' / '' or 'micro'     txs (n), fees in µSTX (amount)  [B]
--   ptx       principal (sender or fee payer)               txs it sent (n), fees it paid (amount)  [B K]
--   deploy    -                                             contracts deployed by successful txs (n)  [B]
--   stx_xfer  -                                             STX transfer events (n), µSTX moved (amount)  [B]
--   block     - / '1' when the parent's time is known      blocks (n), seconds since the parent (amount)  [B]
--   call      contract / function                          contract-call txs (n), their fees (amount)  [B K]
--   caller    contract / sender                            contract-call txs (n)  [B K]
--   cevents   contract                                     print events it emitted (n)  [B]
--   ft        asset / transfer|mint|burn                   events (n), amount  [B K]
--   nft       asset / transfer|mint|burn                   events (n)  [K]
--   flow_in   principal / asset ('stx' or an FT) / sender  transfers received (n), amount  [K]
--   flow_out  principal / asset / recipient                transfers sent (n), amount  [K]
--   hold      FT asset / principal                         balance change (amount)  [K]
--   pbal      principal / 'stx'                            STX balance change (amount)  [K]
-- Units: 'hour' (bucket = unix time of the hour; chain kinds tx, ptx, deploy, stx_xfer, block only),
-- 'day' (unix time of the UTC day), 'cycle' (PoX reward cycle of the block's burn height).

-- Canonical totals per unit, kind and bucket (a bucket range of a kind is one key range).
CREATE TABLE IF NOT EXISTS analytics_by_bucket (
  unit LowCardinality(String),
  kind LowCardinality(String),
  bucket UInt32,
  a String CODEC(ZSTD(1)),
  b String CODEC(ZSTD(1)),
  c String CODEC(ZSTD(1)),
  n Int64,
  amount Int128
) ENGINE = SummingMergeTree
ORDER BY (unit, kind, bucket, a, b, c)
SETTINGS non_replicated_deduplication_window = 1000;

-- The totals of the kinds read by one key (a contract, an asset, a principal), key first; by day
-- and cycle only.
CREATE TABLE IF NOT EXISTS analytics_by_key (
  unit LowCardinality(String),
  kind LowCardinality(String),
  a String CODEC(ZSTD(1)),
  bucket UInt32,
  b String CODEC(ZSTD(1)),
  c String CODEC(ZSTD(1)),
  n Int64,
  amount Int128
) ENGINE = SummingMergeTree
ORDER BY (unit, kind, a, bucket, b, c)
SETTINGS non_replicated_deduplication_window = 1000;

-- Each contract's distinct canonical callers over the whole history, counted at ingest
-- (src/ingest/processor/unique-callers.ts) so that /contracts/top?by=unique_callers over all of
-- history reads a row per contract instead of one per cycle, contract and caller.
--
-- Kind (in analytics_by_bucket only):
--   ucaller   contract / - / -    unit 'all', bucket 0: +1 when a (contract, sender) pair's canonical
--                                 calls turn positive, -1 when a reorg takes them back to zero
--                                 (sum(n) = the contract's distinct callers)

-- Each (contract, sender) pair's canonical contract-call count, as of the batch that last changed
-- it: the processor reads the pairs a batch touches, by key, to tell which turn positive or back
-- to zero. Small granules keep that read proportional to the batch, not to the history. A batch
-- redone after a crash finds its own rows by `log_to` (its last log entry) and knows the count
-- before it.
CREATE TABLE IF NOT EXISTS contract_callers (
  contract_id String,
  sender String,
  calls Int64,
  log_to UInt64
) ENGINE = ReplacingMergeTree(log_to)
ORDER BY (contract_id, sender)
SETTINGS index_granularity = 256, non_replicated_deduplication_window = 1000;

-- Each principal's STX transfers per day and cycle with every counterparty summed, so a principal's
-- series (/principals/:p/series) reads two rows per bucket instead of one per counterparty (the
-- heaviest generated principal: 94k flow rows over 38 days).
--
-- Kind (in analytics_by_key only, signed as the block's other rows are):
--   pstx   principal / 'in' or 'out' / -    STX transfers received or sent (n), µSTX (amount)

-- Each fungible token's holder count per day and cycle, counted at ingest
-- (src/ingest/processor/holder-transitions.ts), so /tokens/ft/:asset/series?metric=holders reads a
-- row per bucket instead of a window over every (holder, bucket) of the token's history.
--
-- Kind (in analytics_by_key only):
--   holders   asset / - / -    +1 in the bucket where a principal's canonical balance turns positive,
--                              -1 where it returns to zero (a reorg's undo included); the running sum
--                              over buckets is the count of holders at each bucket's end

-- Each (asset, principal) pair's canonical balance, as of the batch that last changed it: the
-- processor reads the pairs a batch touches, by key, to tell which turn positive or back to zero.
-- A batch redone after a crash finds its own rows by `log_to` (its last log entry).
CREATE TABLE IF NOT EXISTS ft_holder_pairs (
  asset String,
  principal String,
  balance Int128,
  log_to UInt64
) ENGINE = ReplacingMergeTree(log_to)
ORDER BY (asset, principal)
SETTINGS index_granularity = 256, non_replicated_deduplication_window = 1000;
