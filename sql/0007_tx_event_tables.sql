-- Which event tables hold a tx's events (bit set: 1 stx_events, 2 stx_lock_events, 4 ft_events,
-- 8 nft_events, 16 contract_logs; see src/workers/event-tables.ts). A tx's events are then read
-- from those tables only, not probed by tx_id in all five. Rows stored before this column read 31
-- (every table).
ALTER TABLE txs ADD COLUMN IF NOT EXISTS event_tables UInt8 DEFAULT 31 AFTER event_count;
