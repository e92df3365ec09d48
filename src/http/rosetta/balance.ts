// An account's STX at a block, as the reference computes it: the balance (received - sent - fees
// + matured miner rewards, from principal_balance_changes by key, or the running balance at the
// tip), the PoX lock in force at the block's burn height, and the nonce the next tx would use.
import type { ApiContext } from '../context.ts';
import { chainTip, readHeight } from '../address/scope.ts';
import { assetTotals, lockStateV1 } from '../address/balance-queries.ts';
import { nonceAtHeight } from '../address/nonce-queries.ts';

export interface StxAtBlock {
  balance: bigint;
  locked: bigint;
  nextNonce: number;
}

export async function stxAtBlock(ctx: Pick<ApiContext, 'store' | 'ingest'>, principal: string, height: number): Promise<StxAtBlock> {
  const tip = await chainTip(ctx);
  const at = readHeight(tip, Math.min(height, tip.block_height));
  const [totals, lock, nonce] = await Promise.all([assetTotals(ctx.store, principal, at, 'stx'), lockStateV1(ctx.store, principal, at), nonceAtHeight(ctx.store, principal, height)]);
  return { balance: totals.get('stx')?.balance ?? 0n, locked: lock.locked, nextNonce: nonce.possible_next_nonce };
}
