-- The documented views of the canonical chain that POST /extended/analytics/v1/sql may read (and
-- nothing else: src/http/analytics/sql-guard.ts). Each holds canonical data only: blocks on the
-- canonical chain, and rows of txs (and their events) included there — a microblock's only while
-- that block accepted it. Unconfirmed microblocks and the mempool are not included. Amounts are
-- µSTX or the token's base unit; times are unix seconds.

-- Canonical blocks. block_time: the header time (the burn block's for epoch 2.x blocks).
CREATE VIEW IF NOT EXISTS sql_blocks AS
SELECT index_block_hash, block_hash, block_height, parent_index_block_hash, burn_block_hash, burn_block_height,
       burn_block_time, block_time, tenure_height, tx_count, miner_txid
FROM blocks
WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE canonical = 1)
LIMIT 1 BY index_block_hash;

-- Canonical txs (failed ones included: status 'abort_by_response' / 'abort_by_post_condition').
CREATE VIEW IF NOT EXISTS sql_txs AS
SELECT tx_id, index_block_hash, microblock_hash, block_height, burn_block_height, tx_index, status, type_id,
       sender_address, sponsor_address, nonce, fee_rate, contract_id, function_name, event_count
FROM txs
WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE canonical = 1)
  AND (microblock_hash = '' OR (microblock_hash, index_block_hash) IN (SELECT microblock_hash, index_block_hash FROM microblock_canonical FINAL WHERE canonical = 1))
LIMIT 1 BY tx_id, index_block_hash, microblock_hash;

-- Events of canonical successful txs. asset_event_type: transfer | mint | burn.
CREATE VIEW IF NOT EXISTS sql_stx_events AS
SELECT tx_id, index_block_hash, microblock_hash, block_height, tx_index, event_index, asset_event_type, sender, recipient, amount, memo
FROM stx_events
WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE canonical = 1)
  AND (microblock_hash = '' OR (microblock_hash, index_block_hash) IN (SELECT microblock_hash, index_block_hash FROM microblock_canonical FINAL WHERE canonical = 1))
LIMIT 1 BY tx_id, index_block_hash, microblock_hash, event_index;

CREATE VIEW IF NOT EXISTS sql_ft_events AS
SELECT tx_id, index_block_hash, microblock_hash, block_height, tx_index, event_index, asset_event_type, asset_identifier, sender, recipient, amount
FROM ft_events
WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE canonical = 1)
  AND (microblock_hash = '' OR (microblock_hash, index_block_hash) IN (SELECT microblock_hash, index_block_hash FROM microblock_canonical FINAL WHERE canonical = 1))
LIMIT 1 BY tx_id, index_block_hash, microblock_hash, event_index;

-- value: the token id as a serialized Clarity value (0x hex).
CREATE VIEW IF NOT EXISTS sql_nft_events AS
SELECT tx_id, index_block_hash, microblock_hash, block_height, tx_index, event_index, asset_event_type, asset_identifier, sender, recipient, value
FROM nft_events
WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE canonical = 1)
  AND (microblock_hash = '' OR (microblock_hash, index_block_hash) IN (SELECT microblock_hash, index_block_hash FROM microblock_canonical FINAL WHERE canonical = 1))
LIMIT 1 BY tx_id, index_block_hash, microblock_hash, event_index;

-- Print events; value: a serialized Clarity value (0x hex).
CREATE VIEW IF NOT EXISTS sql_contract_logs AS
SELECT tx_id, index_block_hash, microblock_hash, block_height, tx_index, event_index, contract_identifier, topic, value
FROM contract_logs
WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE canonical = 1)
  AND (microblock_hash = '' OR (microblock_hash, index_block_hash) IN (SELECT microblock_hash, index_block_hash FROM microblock_canonical FINAL WHERE canonical = 1))
LIMIT 1 BY tx_id, index_block_hash, microblock_hash, event_index;

-- Contract deploys of canonical txs (a failed deploy's row too; join sql_txs for its status).
CREATE VIEW IF NOT EXISTS sql_contracts AS
SELECT contract_id, tx_id, index_block_hash, microblock_hash, block_height, clarity_version
FROM contracts
WHERE index_block_hash IN (SELECT index_block_hash FROM block_canonical FINAL WHERE canonical = 1)
  AND (microblock_hash = '' OR (microblock_hash, index_block_hash) IN (SELECT microblock_hash, index_block_hash FROM microblock_canonical FINAL WHERE canonical = 1))
LIMIT 1 BY contract_id, index_block_hash, microblock_hash;

-- Current balances at the canonical tip per asset ('stx' or an FT asset identifier), non-zero only.
CREATE VIEW IF NOT EXISTS sql_balances AS
SELECT asset, principal, sum(balance) AS balance FROM ft_holders GROUP BY asset, principal HAVING balance != 0;

-- The analytics aggregates (see sql/0007_analytics.sql for units and kinds), folded: the kinds of
-- analytics_by_bucket, and the key-only kinds of analytics_by_key.
CREATE VIEW IF NOT EXISTS sql_analytics AS
SELECT unit, kind, bucket, a, b, c, sum(n) AS n, sum(amount) AS amount FROM analytics_by_bucket
GROUP BY unit, kind, bucket, a, b, c HAVING n != 0 OR amount != 0
UNION ALL
SELECT unit, kind, bucket, a, b, c, sum(n) AS n, sum(amount) AS amount FROM analytics_by_key
WHERE kind IN ('nft', 'hold', 'flow_in', 'flow_out', 'pbal')
GROUP BY unit, kind, bucket, a, b, c HAVING n != 0 OR amount != 0;
