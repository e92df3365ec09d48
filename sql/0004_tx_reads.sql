-- Reads of the transaction family (src/http/tx).
--
-- Chain-wide tx lists page newest first by (block_height, microblock_sequence, tx_index), with
-- optional filters on type, sender, called contract/function, nonce, time and fee. The txs table is
-- ordered by tx_id, so a projection keeps the list columns in height order: a page is a short
-- reverse read of its tail, counts read a few narrow columns. ReplacingMergeTree needs a
-- deduplicate_merge_projection_mode to carry projections through merges ('rebuild').
ALTER TABLE txs MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild';

ALTER TABLE txs ADD PROJECTION IF NOT EXISTS txs_by_height (
  SELECT tx_id, index_block_hash, microblock_hash, block_height, microblock_sequence, tx_index, burn_block_time, fee_rate,
         type_id, sender_address, contract_id, function_name, nonce
  ORDER BY block_height, microblock_sequence, tx_index
);

ALTER TABLE txs MATERIALIZE PROJECTION txs_by_height;

-- /extended/v1/tx/events?address=<contract> lists the contract's print events; a contract_logs row
-- is keyed by tx, so a projection by the printing contract answers it without a scan.
ALTER TABLE contract_logs MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild';

ALTER TABLE contract_logs ADD PROJECTION IF NOT EXISTS contract_logs_by_contract (
  SELECT tx_id, index_block_hash, microblock_hash, event_index, block_height, tx_index, contract_identifier
  ORDER BY contract_identifier, block_height, tx_index, event_index
);

ALTER TABLE contract_logs MATERIALIZE PROJECTION contract_logs_by_contract;
