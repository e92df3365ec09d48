-- Burnchain reward reads by recipient: a PoX reward address's rewards and reward slots are read by
-- key through projections ordered by the address, never by scanning every burn block's rows.
ALTER TABLE burn_rewards MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild';

ALTER TABLE burn_rewards ADD PROJECTION IF NOT EXISTS burn_rewards_by_recipient (
  SELECT * ORDER BY reward_recipient, burn_block_height, reward_index
);

ALTER TABLE burn_rewards MATERIALIZE PROJECTION burn_rewards_by_recipient;

ALTER TABLE reward_slot_holders MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild';

ALTER TABLE reward_slot_holders ADD PROJECTION IF NOT EXISTS reward_slot_holders_by_address (
  SELECT * ORDER BY address, burn_block_height, slot_index
);

ALTER TABLE reward_slot_holders MATERIALIZE PROJECTION reward_slot_holders_by_address;
