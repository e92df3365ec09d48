-- Contract reads: /contract/by_trait finds the contracts whose ABI has every function of a trait.
-- Candidates come from this index (one row per function name of each successful deploy), read by
-- the trait's function names, instead of scanning every contract's ABI; the full match (access,
-- argument and output types) is then checked on the candidates' ABIs.
CREATE TABLE IF NOT EXISTS contract_functions (
  name String,
  contract_id String,
  tx_id String,
  index_block_hash String,
  microblock_hash String,
  block_height UInt32
) ENGINE = ReplacingMergeTree
ORDER BY (name, contract_id, index_block_hash, microblock_hash)
SETTINGS non_replicated_deduplication_window = 1000;

-- Stores made before this migration: the ABIs the contracts table kept.
INSERT INTO contract_functions (name, contract_id, tx_id, index_block_hash, microblock_hash, block_height)
SELECT DISTINCT JSONExtractString(f, 'name') AS name, contract_id, tx_id, index_block_hash, microblock_hash, block_height
FROM (SELECT contract_id, tx_id, index_block_hash, microblock_hash, block_height, arrayJoin(JSONExtractArrayRaw(assumeNotNull(abi), 'functions')) AS f
      FROM contracts WHERE abi IS NOT NULL AND abi != 'null');
