-- A microblock tx that was streamed (/new_microblocks) before the anchor block that confirmed it
-- arrived shows the stream's tx_index: the reference keeps the streamed row and fills in the anchor
-- block's fields, while an anchor block numbers its confirmed microblock txs on from its own. Written
-- by the processor when a block accepts a streamed microblock on arrival (a block made canonical
-- later by a reorg shows its own numbering, as the reference's rows of it do).
CREATE TABLE IF NOT EXISTS streamed_tx_index (
  tx_id String,
  index_block_hash String,
  microblock_hash String,
  tx_index UInt32
) ENGINE = ReplacingMergeTree
ORDER BY (tx_id, index_block_hash, microblock_hash)
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000;
