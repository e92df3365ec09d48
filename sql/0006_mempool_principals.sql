-- The mempool's address index: every principal a mempool tx names (sender, sponsor, recipient,
-- called contract), so one principal's pending txs are read by key instead of scanning the mempool.
CREATE TABLE IF NOT EXISTS mempool_principals (
  principal String,
  tx_id String,
  log_id UInt64
) ENGINE = ReplacingMergeTree
ORDER BY (principal, tx_id)
SETTINGS non_replicated_deduplication_window = 1000;
