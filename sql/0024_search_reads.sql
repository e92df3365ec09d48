-- Search by block hash: the blocks table is keyed by index block hash, so a projection keyed by the
-- block hash turns a search into a key read (the block is then read by its index block hash).
ALTER TABLE blocks MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild';

ALTER TABLE blocks ADD PROJECTION IF NOT EXISTS blocks_by_block_hash (
  SELECT block_hash, index_block_hash ORDER BY block_hash
);

ALTER TABLE blocks MATERIALIZE PROJECTION blocks_by_block_hash;
