-- Token reads: an FT's (or STX's) holders by asset, and one NFT's history or an NFT's mints by key.

-- Balances by asset, as signed deltas (src/ingest/processor/holders.ts): the holders of a token are
-- one key range. `touches` counts every change applied, so no row ever sums away.
CREATE TABLE IF NOT EXISTS ft_holders (
  asset String,
  principal String,
  balance Int128,
  touches Int64
) ENGINE = SummingMergeTree
ORDER BY (asset, principal)
SETTINGS non_replicated_deduplication_window = 1000;

-- Stores made before this migration: the balance changes of their canonical blocks (the running
-- `balances` drop a principal whose changes all summed to zero; the reference keeps it).
INSERT INTO ft_holders (asset, principal, balance, touches)
SELECT asset, principal, sum(balance), 1
FROM (SELECT asset, principal, balance FROM balance_changes
      WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE canonical = 1)
      LIMIT 1 BY index_block_hash, microblock_hash, principal, asset)
GROUP BY asset, principal;

-- NFT events by token: one token's history (asset, value), and an asset's mints.
ALTER TABLE nft_events MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild';

ALTER TABLE nft_events ADD PROJECTION IF NOT EXISTS nft_events_by_token (
  SELECT * ORDER BY asset_identifier, value, block_height, tx_index, event_index
);

ALTER TABLE nft_events ADD PROJECTION IF NOT EXISTS nft_events_by_asset_event_type (
  SELECT * ORDER BY asset_identifier, asset_event_type, block_height, tx_index, event_index
);

ALTER TABLE nft_events MATERIALIZE PROJECTION nft_events_by_token;

ALTER TABLE nft_events MATERIALIZE PROJECTION nft_events_by_asset_event_type;

-- The reference also keeps an STX row for every fee payer, at fee 0 too (coinbase, tenure changes).
INSERT INTO ft_holders (asset, principal, balance, touches)
SELECT 'stx', payer, 0, 1
FROM (SELECT DISTINCT if(sponsor_address != '', sponsor_address, sender_address) AS payer FROM txs
      WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE canonical = 1))
WHERE payer != '';
