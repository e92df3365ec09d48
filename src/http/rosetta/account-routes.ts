// /rosetta/v1/account/balance: an account's STX at the tip or at a block, whole (spendable: what is
// not locked) or one sub-account (StackedBalance, SpendableBalance, VestingLockedBalance,
// VestingUnlockedBalance), with the account's next nonce as sequence_number.
import type { RouteDef } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { STX, SUB_ACCOUNTS } from './constants.ts';
import { rosettaError } from './errors.ts';
import { normalizeHash, rosettaBody } from './request.ts';
import { meshResponses, meshSchema } from './schemas.ts';
import { findBlock } from './queries.ts';
import { identifierOf } from './block.ts';
import { stxAtBlock } from './balance.ts';

interface BalanceRequest {
  account_identifier: { address: string; sub_account?: { address: string } };
  block_identifier?: { index?: number; hash?: string };
  currencies?: Array<{ symbol: string; decimals: number }>;
}

export const accountRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'post',
    path: '/rosetta/v1/account/balance',
    summary: "An account's STX balance at the tip or at a block",
    tags: ['Rosetta'],
    body: meshSchema('RosettaAccountBalanceRequest'),
    responses: meshResponses('RosettaAccountBalanceResponse'),
    handler: async (req, ctx) => {
      const body = rosettaBody<BalanceRequest>(req, ctx, 'RosettaAccountBalanceRequest');
      const id = body.block_identifier;
      const hash = id?.hash === undefined ? undefined : normalizeHash(id.hash);
      // As the reference: a positive height wins over a hash (which must then name the same block);
      // a height of 0 or less is the tip.
      const index = id?.index;
      const block = index !== undefined ? await findBlock(ctx.store, { index }) : await findBlock(ctx.store, { hash });
      if (!block) throw rosettaError('blockNotFound');
      if (hash !== undefined && block.block_hash !== hash) throw rosettaError('invalidBlockHash', `the block at height ${block.block_height} is ${block.block_hash}`);
      const sub = body.account_identifier.sub_account?.address;
      if (sub !== undefined && !Object.values(SUB_ACCOUNTS).includes(sub as never)) throw rosettaError('invalidSubAccount', `sub-accounts: ${Object.values(SUB_ACCOUNTS).join(', ')}`);
      const stx = await stxAtBlock(ctx, body.account_identifier.address, block.block_height);
      // Vesting schedules (mainnet genesis allocations) are not indexed: nothing is vesting.
      const value = sub === SUB_ACCOUNTS.stacked ? stx.locked : sub === SUB_ACCOUNTS.vestingLocked || sub === SUB_ACCOUNTS.vestingUnlocked ? 0n : stx.balance - stx.locked;
      const wanted = (c: { symbol: string; decimals: number }) => !body.currencies || body.currencies.some((w) => w.symbol === c.symbol && w.decimals === c.decimals);
      const currency = { symbol: STX.symbol, decimals: STX.decimals };
      return {
        block_identifier: identifierOf(block),
        balances: wanted(currency) ? [{ value: value.toString(), currency }] : [],
        metadata: { sequence_number: stx.nextNonce },
      };
    },
  },
];
