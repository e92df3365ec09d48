-- Each fungible token's holder count per day and cycle, counted at ingest
-- (src/ingest/processor/holder-transitions.ts), so /tokens/ft/:asset/series?metric=holders reads a
-- row per bucket instead of a window over every (holder, bucket) of the token's history.
--
-- Kind (in analytics_by_key only, written there by the processor):
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

-- A store made before this migration gets both from its 'hold' totals.
INSERT INTO ft_holder_pairs (asset, principal, balance, log_to)
SELECT a, b, sum(amount), 0 FROM analytics_by_key WHERE unit = 'cycle' AND kind = 'hold' GROUP BY a, b HAVING sum(amount) != 0;

INSERT INTO analytics_by_key (unit, kind, a, bucket, b, c, n, amount)
SELECT unit, 'holders', asset, bucket, '', '', sum(change), 0 FROM (
  SELECT unit, asset, bucket, toInt64(bal > 0) - toInt64(lagInFrame(bal, 1, toInt128(0)) OVER w > 0) AS change
  FROM (SELECT unit, asset, p, bucket, sum(d) OVER (PARTITION BY unit, asset, p ORDER BY bucket ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS bal
        FROM (SELECT unit, a AS asset, b AS p, bucket, sum(amount) AS d FROM analytics_by_key
              WHERE unit IN ('day', 'cycle') AND kind = 'hold' GROUP BY unit, asset, p, bucket HAVING d != 0))
  WINDOW w AS (PARTITION BY unit, asset, p ORDER BY bucket ROWS BETWEEN 1 PRECEDING AND CURRENT ROW))
GROUP BY unit, asset, bucket HAVING sum(change) != 0;
