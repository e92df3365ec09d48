// The running STX supply: each canonical block adds the STX it issued at its height (signed deltas
// in `stx_supply`, summed by height), an orphaned block adds it negated. The supply as of a height
// is then the sum of the rows up to it.
import type { Batch } from './batch.ts';
import type { BlockState } from './chain-state.ts';
import type { ApplyContext } from './context.ts';

/** STX a block issued: in memory for recent blocks, else read back from its fact row. */
export async function blockSupply(ctx: ApplyContext, b: BlockState): Promise<string> {
  if (b.supply !== undefined) return b.supply;
  await ctx.earlierBatchesStored();
  const rs = await ctx.store.client.query({
    query: `SELECT toString(amount) AS amount FROM supply_changes WHERE index_block_hash = {h:String} LIMIT 1`,
    query_params: { h: b.index_block_hash },
    format: 'JSONEachRow',
  });
  b.supply = (await rs.json<{ amount: string }>())[0]?.amount ?? '0';
  return b.supply;
}

/** Adds (sign 1) or removes (sign -1) a block's issued STX from the running supply. */
export async function addSupplyRow(ctx: ApplyContext, b: BlockState, sign: 1 | -1): Promise<void> {
  const amount = BigInt(await blockSupply(ctx, b));
  if (amount !== 0n) addSupply(ctx.batch, b.block_height, sign === 1 ? amount : -amount);
}

function addSupply(batch: Batch, block_height: number, amount: bigint): void {
  batch.addRows('stx_supply', [{ block_height, amount: amount.toString() }]);
}
