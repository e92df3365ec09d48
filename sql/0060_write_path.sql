-- What a reorg undoes of a block is decoded again from the block's event-log entry
-- (src/ingest/processor/context.ts decodedBlock), so its per-block undo facts are not stored.
DROP TABLE IF EXISTS analytics_changes;

DROP TABLE IF EXISTS balance_changes;

DROP TABLE IF EXISTS supply_changes;

DROP TABLE IF EXISTS count_changes;

-- The processor writes each analytics kind into the table its readers read, summed per batch
-- (src/ingest/processor/analytics-rows.ts): no copy from analytics_by_bucket.
DROP VIEW IF EXISTS analytics_by_key_mv;
