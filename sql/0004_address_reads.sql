-- Address reads the serving store does not answer (an address's assets, STX inbound transfers, its
-- history at a height or until a block, balances as of a height): its asset events and its balance
-- history, each ordered by principal so that one address is read by key prefix, never by scanning
-- a table.

-- One row per (principal, event) for every party of an STX/FT/NFT event, the locked address of an
-- STX lock event, and the stacker of a PoX-2/3/4 operation (with the reference's corrections of
-- `locked` and the unlock height applied); plus `inbound` rows, the reference's stx_inbound list:
-- a token-transfer tx (any status) and STX transfer events with a memo or followed by a
-- send-many-memo print, for the recipient. Unconfirmed microblock rows have index_block_hash ''
-- and block_height 0, as in principal_txs.
CREATE TABLE IF NOT EXISTS principal_events (
  principal String CODEC(ZSTD(1)),
  block_height UInt32,
  microblock_sequence UInt32,
  tx_index UInt32,
  event_index UInt32,
  tx_id String CODEC(ZSTD(1)),
  index_block_hash String CODEC(ZSTD(1)),
  microblock_hash String CODEC(ZSTD(1)),
  -- stx | ft | nft | stx_lock | pox2 | pox3 | pox4 | inbound
  kind LowCardinality(String),
  -- transfer | mint | burn; the operation name for pox*; the transfer_type for inbound
  asset_event_type LowCardinality(String),
  asset_identifier String CODEC(ZSTD(1)),
  sender String CODEC(ZSTD(1)),
  recipient String CODEC(ZSTD(1)),
  -- STX/FT amount; locked amount for stx_lock and pox*
  amount UInt128,
  -- NFT token id, serialized Clarity value, 0x hex
  value String CODEC(ZSTD(1)),
  -- STX transfer memo; for inbound the memo shown (a send-many print's value)
  memo String CODEC(ZSTD(1)),
  -- stx_lock: unlock_height; pox*: burnchain unlock height
  unlock_height UInt64,
  contract_name String CODEC(ZSTD(1)),
  log_id UInt64
) ENGINE = ReplacingMergeTree
ORDER BY (principal, block_height, microblock_sequence, tx_index, tx_id, event_index, kind, asset_event_type, index_block_hash, microblock_hash)
SETTINGS non_replicated_deduplication_window = 1000;

-- Each block's balance changes by principal: a balance as of any height is the sum over the
-- canonical blocks up to it (the running `balances` answer the tip).
CREATE TABLE IF NOT EXISTS principal_balance_changes (
  principal String CODEC(ZSTD(1)),
  asset String CODEC(ZSTD(1)),
  block_height UInt32,
  index_block_hash String CODEC(ZSTD(1)),
  balance Int128,
  total_sent Int128,
  total_received Int128,
  total_fees_sent Int128,
  total_miner_rewards Int128,
  log_id UInt64
) ENGINE = ReplacingMergeTree
ORDER BY (principal, asset, block_height, index_block_hash)
SETTINGS non_replicated_deduplication_window = 1000;

-- A microblock tx that was streamed (/new_microblocks) before the anchor block that confirmed it
-- arrived shows the stream's tx_index: the reference keeps the streamed row and fills in the anchor
-- block's fields, while an anchor block numbers its confirmed microblock txs on from its own. Written
-- by the processor when a block accepts a streamed microblock on arrival (a block made canonical
-- later by a reorg shows its own numbering, as the reference's rows of it do).
CREATE TABLE IF NOT EXISTS streamed_tx_index (
  tx_id String CODEC(ZSTD(1)),
  index_block_hash String CODEC(ZSTD(1)),
  microblock_hash String CODEC(ZSTD(1)),
  tx_index UInt32
) ENGINE = ReplacingMergeTree
ORDER BY (tx_id, index_block_hash, microblock_hash)
SETTINGS index_granularity = 1024, non_replicated_deduplication_window = 1000;
