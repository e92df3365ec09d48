// JSON Schemas of the burnchain reward routes' answers (the reference API's entities, v8.15.4).
type S = Record<string, unknown>;

const str: S = { type: 'string' };
const int: S = { type: 'integer' };
const obj = (properties: Record<string, S>, title?: string, required = Object.keys(properties)): S => ({ ...(title ? { title } : {}), type: 'object', properties, required });

export const BURNCHAIN_REWARD: S = obj(
  { canonical: { type: 'boolean' }, burn_block_hash: str, burn_block_height: int, burn_amount: str, reward_recipient: str, reward_amount: str, reward_index: int },
  'BurnchainReward',
);
export const SLOT_HOLDER: S = obj({ canonical: { type: 'boolean' }, burn_block_hash: str, burn_block_height: int, address: str, slot_index: int }, 'BurnchainRewardSlotHolder');

export const REWARD_LIST: S = obj({ limit: int, offset: int, results: { type: 'array', items: BURNCHAIN_REWARD } }, 'BurnchainRewardListResponse');
export const SLOT_HOLDER_LIST: S = obj({ limit: int, offset: int, total: int, results: { type: 'array', items: SLOT_HOLDER } }, 'BurnchainRewardSlotHolderListResponse');
export const REWARDS_TOTAL: S = obj({ reward_recipient: str, reward_amount: str }, 'BurnchainRewardsTotal');

export const ADDRESS_PARAM: S = { type: 'object', properties: { address: str }, required: ['address'] };
