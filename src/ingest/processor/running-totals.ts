// Running totals a block changes, added when it becomes canonical and negated when it is orphaned
// (signed deltas, summed at read): the STX supply by height (`stx_supply`: each block's issued STX)
// and event counts (`running_counts`: e.g. NFT mints per asset). What a block changed is in memory
// for recent blocks, else read back from its fact rows (supply_changes, count_changes).
import type { BlockState } from './chain-state.ts';
import type { ApplyContext } from './context.ts';
import type { CountDelta } from '../../workers/decoded.ts';

async function readBack<T>(ctx: ApplyContext, query: string, b: BlockState): Promise<T[]> {
  await ctx.earlierBatchesStored();
  const rs = await ctx.store.client.query({ query, query_params: { h: b.index_block_hash }, format: 'JSONEachRow' });
  return rs.json<T>();
}

/** STX a block issued. */
export async function blockSupply(ctx: ApplyContext, b: BlockState): Promise<string> {
  b.supply ??= (await readBack<{ amount: string }>(ctx, `SELECT toString(amount) AS amount FROM supply_changes WHERE index_block_hash = {h:String} LIMIT 1`, b))[0]?.amount ?? '0';
  return b.supply;
}

/** The event counts a block changed. */
export async function blockCounts(ctx: ApplyContext, b: BlockState): Promise<CountDelta[]> {
  b.counts ??= (await readBack<CountDelta>(ctx, `SELECT name, key, n FROM count_changes WHERE index_block_hash = {h:String} LIMIT 1 BY name, key`, b)).map((c) => ({ ...c, n: Number(c.n) }));
  return b.counts;
}

/** Adds (sign 1) or removes (sign -1) what a block changed in the running totals. */
export async function addRunningTotals(ctx: ApplyContext, b: BlockState, sign: 1 | -1): Promise<void> {
  const [supply, counts] = await Promise.all([blockSupply(ctx, b), blockCounts(ctx, b)]);
  const issued = BigInt(supply);
  if (issued !== 0n) ctx.batch.addRows('stx_supply', [{ block_height: b.block_height, amount: (sign === 1 ? issued : -issued).toString() }]);
  ctx.batch.addRows('running_counts', counts.map((c) => ({ name: c.name, key: c.key, n: sign * c.n })));
}
