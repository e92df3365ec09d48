-- Each contract's distinct canonical callers over the whole history, counted at ingest
-- (src/ingest/processor/unique-callers.ts) so that /contracts/top?by=unique_callers over all of
-- history reads a row per contract instead of one per cycle, contract and caller.
--
-- Kind (in analytics_by_bucket only; the materialized view into analytics_by_key skips it):
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

-- A store made before this migration gets both from its 'caller' totals.
INSERT INTO contract_callers (contract_id, sender, calls, log_to)
SELECT a, b, sum(n), 0 FROM analytics_by_key WHERE unit = 'cycle' AND kind = 'caller' GROUP BY a, b HAVING sum(n) != 0;

INSERT INTO analytics_by_bucket (unit, kind, bucket, a, b, c, n, amount)
SELECT 'all', 'ucaller', 0, contract_id, '', '', count(), 0 FROM contract_callers WHERE calls > 0 GROUP BY contract_id;
