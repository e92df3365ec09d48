// The analytics aggregates as signed deltas (sql/0007_analytics.sql): a block that becomes canonical
// adds what it changed (its analytics changes, one row per bucket it falls in), an orphaned one adds
// the same negated, exactly as balances are kept. The batch sums the rows by key and puts each kind
// in the table its readers read (analytics-rows.ts): analytics_by_bucket and analytics_by_key, both
// summing the signed rows away when a reorg undoes them.
import type { BlockState } from './chain-state.ts';
import type { ApplyContext } from './context.ts';
import type { AnalyticsChange } from '../../workers/decoded.ts';
import { decodedBlock } from './context.ts';
import { bucketCode, changeKey } from './analytics-rows.ts';
import { bucketOf, networkOfPrincipal, unitsOf, type Network } from './analytics-buckets.ts';

/** STACKS_API_ANALYTICS_INGEST=0 leaves the aggregates unwritten (the benchmark's baseline). */
const OFF = process.env.STACKS_API_ANALYTICS_INGEST === '0';

/** The network the chain's addresses belong to (for cycle buckets); learned from blocks' senders. */
let lastNetwork: Network = 'mainnet';

function networkOf(changes: readonly AnalyticsChange[]): Network {
  for (const c of changes) {
    if (c.kind !== 'ptx') continue;
    const n = networkOfPrincipal(c.a);
    if (n) return (lastNetwork = n);
  }
  return lastNetwork;
}

/** Adds (sign 1) or removes (sign -1) what a block changed in the analytics aggregates. */
export async function addAnalyticsRows(ctx: ApplyContext, b: BlockState, sign: 1 | -1): Promise<void> {
  if (OFF) return;
  const changes = (await decodedBlock(ctx, b)).analytics;
  const network = networkOf(changes);
  const time = b.block_time ?? b.burn_block_time;
  const parent = ctx.state.blocks.get(b.parent_index_block_hash);
  const parentTime = parent ? (parent.block_time ?? parent.burn_block_time) : undefined;
  // A block's own row: n = 1, amount = seconds since its parent; b = '1' when that gap is known.
  const hasGap = parentTime !== undefined && b.block_height > 1;
  const all: AnalyticsChange[] = [...changes, { kind: 'block', a: '', b: hasGap ? '1' : '0', c: '', n: 1, amount: hasGap ? String(time - parentTime) : '0' }];
  const buckets = { hour: bucketOf('hour', time, b.burn_block_height, network), day: bucketOf('day', time, b.burn_block_height, network), cycle: bucketOf('cycle', time, b.burn_block_height, network) };
  const codes = { hour: bucketCode('hour', buckets.hour), day: bucketCode('day', buckets.day), cycle: bucketCode('cycle', buckets.cycle) };
  const chainCodes = [codes.hour, codes.day, codes.cycle];
  const keyCodes = [codes.day, codes.cycle];
  const rows = ctx.batch.analytics;
  const holdBuckets = UNITS_BY_KEY.map((unit) => [unit, buckets[unit]] as const);
  for (const c of all) {
    const n = sign * c.n;
    if (c.kind === 'caller') ctx.batch.callers.add(c.a, c.b, n);
    if (c.kind === 'hold') ctx.batch.holders.add(c.a, c.b, BigInt(sign) * BigInt(c.amount), holdBuckets);
    rows.add(changeKey(c.kind, c.a, c.b, c.c), c.kind, c.a, c.b, c.c, unitsOf(c.kind).length === 3 ? chainCodes : keyCodes, n, c.amount, sign);
  }
  for (const r of principalStx(all, sign)) {
    rows.add(changeKey('pstx', r.principal, r.dir, ''), 'pstx', r.principal, r.dir, '', keyCodes, r.n, r.amount.toString(), 1);
  }
}

/** The units of the kinds kept in analytics_by_key only (pstx, holders): day and cycle. */
const UNITS_BY_KEY = unitsOf('pstx');

/** The block's STX transfers per principal and direction, all counterparties summed ('pstx' in
 *  sql/0007), from its flow changes. */
function principalStx(changes: readonly AnalyticsChange[], sign: 1 | -1): Array<{ principal: string; dir: 'in' | 'out'; n: number; amount: bigint }> {
  const out = new Map<string, { principal: string; dir: 'in' | 'out'; n: number; amount: bigint }>();
  for (const c of changes) {
    if ((c.kind !== 'flow_in' && c.kind !== 'flow_out') || c.b !== 'stx') continue;
    const dir = c.kind === 'flow_in' ? 'in' : 'out';
    const key = `${dir}|${c.a}`;
    const r = out.get(key) ?? out.set(key, { principal: c.a, dir, n: 0, amount: 0n }).get(key)!;
    r.n += sign * c.n;
    r.amount += BigInt(sign) * BigInt(c.amount);
  }
  return [...out.values()];
}
