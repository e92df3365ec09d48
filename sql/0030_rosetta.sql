-- Reads of the Rosetta family (src/http/rosetta).
--
-- Miner rewards in the order the node reported them: the reference lists a block's matured
-- rewards newest inserted first. reward_index (the position in the block's matured_miner_rewards)
-- also joins the key: one block can pay the same recipient twice from the same parent (a coinbase
-- and a streamed-fee share), and rows equal in the old key collapsed into one.
ALTER TABLE miner_rewards
  ADD COLUMN IF NOT EXISTS reward_index UInt32,
  MODIFY ORDER BY (index_block_hash, recipient, from_index_block_hash, reward_index);

-- The lock a PoX-2/3/4 operation leaves its stacker with: the printed values corrected from the
-- op's data as src/workers/address-index.ts poxLockState does (stack-stx / delegate-stack-stx: the
-- lock amount and unlock height; an increase adds to the amount; an extend sets the unlock height).
ALTER TABLE pox_events
  ADD COLUMN IF NOT EXISTS lock_amount UInt128 MATERIALIZED multiIf(
    name IN ('stack-stx', 'delegate-stack-stx'), ifNull(toUInt128OrNull(JSONExtractString(data, 'lock-amount')), locked),
    name IN ('stack-increase', 'delegate-stack-increase'), locked + ifNull(toUInt128OrNull(JSONExtractString(data, 'increase-by')), toUInt128(0)),
    locked),
  ADD COLUMN IF NOT EXISTS lock_unlock_height UInt64 MATERIALIZED if(
    name IN ('stack-stx', 'delegate-stack-stx', 'stack-extend', 'delegate-stack-extend'),
    ifNull(toUInt64OrNull(JSONExtractString(data, 'unlock-burn-height')), burnchain_unlock_height),
    burnchain_unlock_height);

ALTER TABLE pox_events MATERIALIZE COLUMN lock_amount;

ALTER TABLE pox_events MATERIALIZE COLUMN lock_unlock_height;

-- Locks that end at a burn height: a block's STX unlocks are read by unlock height, not scanned.
ALTER TABLE pox_events MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild';

ALTER TABLE pox_events ADD PROJECTION IF NOT EXISTS pox_events_by_unlock (
  SELECT pox_version, block_height, tx_index, event_index, tx_id, index_block_hash, microblock_hash, name, stacker, lock_amount, lock_unlock_height
  ORDER BY pox_version, lock_unlock_height
);

ALTER TABLE pox_events MATERIALIZE PROJECTION pox_events_by_unlock;

ALTER TABLE stx_lock_events MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild';

ALTER TABLE stx_lock_events ADD PROJECTION IF NOT EXISTS stx_lock_events_by_unlock (
  SELECT tx_id, index_block_hash, microblock_hash, event_index, block_height, tx_index, locked_amount, unlock_height, locked_address, contract_name
  ORDER BY contract_name, unlock_height
);

ALTER TABLE stx_lock_events MATERIALIZE PROJECTION stx_lock_events_by_unlock;
