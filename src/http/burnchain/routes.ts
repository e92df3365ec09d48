// /extended/v1/burnchain: PoX rewards paid on the burn chain and the reward slot holders of each burn
// block. An address may be given as a Bitcoin address or as a Stacks address (read as its Bitcoin
// twin with the same hash160), as in the reference.
import type { RouteDef } from '../route.ts';
import { queryOf } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { httpError } from '../errors.ts';
import { limitOffset } from '../params.ts';
import { isValidBitcoinAddress, stxToBtcAddress } from '../../stacks/encode/btc-address.ts';
import { rewardsPage, rewardsTotal, slotHoldersPage, type RewardRow, type SlotHolderRow } from './queries.ts';
import { ADDRESS_PARAM, REWARD_LIST, REWARDS_TOTAL, SLOT_HOLDER_LIST } from './schemas.ts';

const PAGE = limitOffset(96, 250);

type Page = { limit: number; offset: number };

/** The Bitcoin address a route's :address names, or the reference's 400 (`message`). */
function burnchainAddress(raw: string, message: (addr: string) => string): string {
  const addr = raw.trim();
  const btc = isValidBitcoinAddress(addr) ? addr : stxToBtcAddress(addr);
  if (!btc) throw httpError(400, message(addr));
  return btc;
}

const rewardAddress = (raw: string) => burnchainAddress(raw, () => 'Address is not a valid Bitcoin or STX address.');
const slotAddress = (raw: string) => burnchainAddress(raw, (a) => `Address ${a} is not a valid Bitcoin or STX address.`);

const formatReward = (r: RewardRow) => ({ canonical: true, ...r });
const formatSlotHolder = (r: SlotHolderRow) => ({ canonical: true, ...r });

export const burnchainRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'get',
    path: '/extended/v1/burnchain/reward_slot_holders',
    summary: 'Get recent reward slot holders',
    tags: ['Stacking Rewards'],
    query: PAGE,
    responses: { 200: SLOT_HOLDER_LIST },
    handler: async (req, ctx) => {
      const { limit, offset } = queryOf<Page>(req);
      const { total, results } = await slotHoldersPage(ctx.store, undefined, limit, offset);
      return { limit, offset, total, results: results.map(formatSlotHolder) };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/burnchain/reward_slot_holders/:address',
    summary: 'Get recent reward slot holder entries for the given address',
    tags: ['Stacking Rewards'],
    params: ADDRESS_PARAM,
    query: PAGE,
    responses: { 200: SLOT_HOLDER_LIST },
    handler: async (req, ctx) => {
      const { limit, offset } = queryOf<Page>(req);
      const { total, results } = await slotHoldersPage(ctx.store, slotAddress(req.params.address), limit, offset);
      return { limit, offset, total, results: results.map(formatSlotHolder) };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/burnchain/rewards',
    summary: 'Get recent burnchain reward recipients',
    tags: ['Stacking Rewards'],
    query: PAGE,
    responses: { 200: REWARD_LIST },
    handler: async (req, ctx) => {
      const { limit, offset } = queryOf<Page>(req);
      return { limit, offset, results: (await rewardsPage(ctx.store, undefined, limit, offset)).map(formatReward) };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/burnchain/rewards/:address',
    summary: 'Get recent burnchain rewards for the given recipient',
    tags: ['Stacking Rewards'],
    params: ADDRESS_PARAM,
    query: PAGE,
    responses: { 200: REWARD_LIST },
    handler: async (req, ctx) => {
      const { limit, offset } = queryOf<Page>(req);
      return { limit, offset, results: (await rewardsPage(ctx.store, rewardAddress(req.params.address), limit, offset)).map(formatReward) };
    },
  },
  {
    method: 'get',
    path: '/extended/v1/burnchain/rewards/:address/total',
    summary: 'Get total burnchain rewards for the given recipient',
    tags: ['Stacking Rewards'],
    params: ADDRESS_PARAM,
    responses: { 200: REWARDS_TOTAL },
    handler: async (req, ctx) => {
      const recipient = rewardAddress(req.params.address);
      return { reward_recipient: recipient, reward_amount: await rewardsTotal(ctx.store, recipient) };
    },
  },
];
