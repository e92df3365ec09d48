// Running totals a block changes, added when it becomes canonical and negated when it is orphaned
// (signed deltas, summed at read): the STX supply by height (`stx_supply`: each block's issued STX)
// and event counts (`running_counts`: e.g. NFT mints per asset). What a block changed is in memory
// for recent blocks, else decoded again from its event-log entry (context.ts decodedBlock).
import type { BlockState } from './chain-state.ts';
import type { ApplyContext } from './context.ts';
import { decodedBlock } from './context.ts';

/** Adds (sign 1) or removes (sign -1) what a block changed in the running totals. */
export async function addRunningTotals(ctx: ApplyContext, b: BlockState, sign: 1 | -1): Promise<void> {
  const { supply, counts } = await decodedBlock(ctx, b);
  const issued = BigInt(supply);
  if (issued !== 0n) ctx.batch.addRows('stx_supply', [{ block_height: b.block_height, amount: (sign === 1 ? issued : -issued).toString() }]);
  ctx.batch.addRows('running_counts', counts.map((c) => ({ name: c.name, key: c.key, n: sign * c.n })));
}
