-- The current pending mempool, so that reads of it do not group every tx ever seen (mempool_status
-- keeps that whole history, one row per status change; at 1M txs its pending list took 200-300 ms).
-- Each mempool_status row is mirrored here with the same version: is_deleted = 1 when the tx left
-- the pending set (confirmed, dropped). FINAL hides those, and the processor's periodic
-- OPTIMIZE ... FINAL CLEANUP removes them, so the table stays about the size of the node's mempool.
-- mempool_status stays the authority: readers take candidates from here and their status from there.
CREATE TABLE IF NOT EXISTS mempool_pending (
  tx_id String,
  -- Every principal the tx names (as mempool_principals): one principal's pending txs are filtered
  -- in this small table instead of read through its whole mempool history.
  principals Array(String),
  version UInt64,
  is_deleted UInt8
) ENGINE = ReplacingMergeTree(version, is_deleted)
ORDER BY tx_id
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000, allow_experimental_replacing_merge_with_cleanup = 1;

-- Stores made before this migration: their pending set, with the principals their index names.
INSERT INTO mempool_pending (tx_id, principals, version, is_deleted)
SELECT s.tx_id, p.principals, s.last, 0
FROM (SELECT tx_id, max(version) AS last FROM mempool_status GROUP BY tx_id HAVING argMax(status, version) = 'pending') AS s
LEFT JOIN (SELECT tx_id, groupUniqArray(principal) AS principals FROM mempool_principals GROUP BY tx_id) AS p ON p.tx_id = s.tx_id;
