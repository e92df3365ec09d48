-- BNS (src/workers/bns.ts): names and namespaces from the BNS contract's prints, subdomains from the
-- zonefiles of name-update attachments. Facts placed like txs (canonical status from the overlay);
-- zonefiles are the stored attachments (sql/0003), read by the name event's tx. BNS reads are the
-- /v1/names, /v1/namespaces, /v1/addresses and /v2/prices routes (src/http/bns).

-- One row per name operation, ordered for one name's history (a namespace's names are read in key
-- order with optimize_aggregation_in_order, which the engine answers without a projection).
CREATE TABLE IF NOT EXISTS bns_names (
  name String,
  namespace_id String,
  address String,
  -- The block height of the operation.
  registered_at UInt32,
  tx_id String,
  tx_index UInt32,
  event_index UInt32,
  index_block_hash String,
  microblock_hash String,
  microblock_sequence UInt32,
  -- The operation: name-register, name-update, name-transfer, name-renewal, name-revoke, name-import…
  status LowCardinality(String),
  zonefile_hash String
) ENGINE = ReplacingMergeTree
ORDER BY (name, registered_at, microblock_sequence, tx_index, event_index, index_block_hash, microblock_hash)
SETTINGS non_replicated_deduplication_window = 1000;

-- One row per namespace-ready print.
CREATE TABLE IF NOT EXISTS bns_namespaces (
  namespace_id String,
  address String,
  base UInt128,
  coeff UInt128,
  no_vowel_discount UInt128,
  nonalpha_discount UInt128,
  -- The price function's 16 exponents, comma separated.
  buckets String,
  launched_at UInt32,
  lifetime UInt32,
  reveal_block UInt32,
  status LowCardinality(String),
  ready_block UInt32,
  tx_id String,
  tx_index UInt32,
  index_block_hash String,
  microblock_hash String,
  microblock_sequence UInt32
) ENGINE = ReplacingMergeTree
ORDER BY (namespace_id, ready_block, microblock_sequence, tx_index, index_block_hash, microblock_hash)
SETTINGS non_replicated_deduplication_window = 1000;

-- One row per subdomain a name-update zonefile lists, by parent name; the projection by owner
-- (/v1/addresses/:blockchain/:address).
CREATE TABLE IF NOT EXISTS bns_subdomains (
  fully_qualified_subdomain String,
  name String,
  namespace_id String,
  owner String,
  zonefile_hash String,
  zonefile String,
  resolver String,
  tx_id String,
  index_block_hash String,
  block_height UInt32,
  PROJECTION bns_subdomains_by_owner (SELECT * ORDER BY owner, fully_qualified_subdomain, block_height)
) ENGINE = ReplacingMergeTree
ORDER BY (name, fully_qualified_subdomain, block_height, tx_id, index_block_hash)
SETTINGS non_replicated_deduplication_window = 1000, deduplicate_merge_projection_mode = 'rebuild';
