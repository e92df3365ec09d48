// JSON Schemas of the burnchain reward routes (schemas/api/burnchain.json).
import { apiSchemas } from '../schema-home.ts';

const burnchain = apiSchemas('burnchain.json');

export const REWARD_LIST = burnchain('BurnchainRewardListResponse');
export const SLOT_HOLDER_LIST = burnchain('BurnchainRewardSlotHolderListResponse');
export const REWARDS_TOTAL = burnchain('BurnchainRewardsTotal');
export const ADDRESS_PARAM = burnchain('RewardAddressParams');
