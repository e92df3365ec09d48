// The analytics aggregates as signed deltas (sql/0007_analytics.sql): a block that becomes canonical
// adds what it changed (its analytics changes, one row per bucket it falls in), an orphaned one adds
// the same negated, exactly as balances are kept. The batch sums the rows by key and puts each kind
// in the table its readers read (analytics-rows.ts): analytics_by_bucket and analytics_by_key, both
// summing the signed rows away when a reorg undoes them.
import type { BlockState } from './chain-state.ts';
import type { ApplyContext } from './context.ts';
import type { AnalyticsChanges } from '../../workers/decoded.ts';
import { decodedBlock } from './context.ts';
import { bucketCode } from './analytics-rows.ts';
import { bucketOf, isChainKind, networkOfPrincipal, type Network } from '../../stacks/buckets.ts';
import { ANALYTICS_KINDS, changeKey, keysOf } from '../../workers/analytics-changes.ts';

/** STACKS_API_ANALYTICS_INGEST=0 leaves the aggregates unwritten (the benchmark's baseline). */
const OFF = process.env.STACKS_API_ANALYTICS_INGEST === '0';

/** The network the chain's addresses belong to (for cycle buckets); learned from blocks' senders. */
let lastNetwork: Network = 'mainnet';

const PTX = ANALYTICS_KINDS.indexOf('ptx');
const CALLER = ANALYTICS_KINDS.indexOf('caller');
const HOLD = ANALYTICS_KINDS.indexOf('hold');
/** Per kind code: whether it is kept by hour too (the chain-wide series). */
const CHAIN_KIND = ANALYTICS_KINDS.map((k) => isChainKind(k));

function networkOf(changes: AnalyticsChanges): Network {
  for (let i = 0; i < changes.kinds.length; i++) {
    if (changes.kinds[i] !== PTX) continue;
    const n = networkOfPrincipal(keysOf(changes.keys[i])[1]);
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
  const buckets = { hour: bucketOf('hour', time, b.burn_block_height, network), day: bucketOf('day', time, b.burn_block_height, network), cycle: bucketOf('cycle', time, b.burn_block_height, network) };
  const codes = { hour: bucketCode('hour', buckets.hour), day: bucketCode('day', buckets.day), cycle: bucketCode('cycle', buckets.cycle) };
  const chainCodes = [codes.hour, codes.day, codes.cycle];
  const keyCodes = [codes.day, codes.cycle];
  const rows = ctx.batch.analytics;
  const holdBuckets = UNITS_BY_KEY.map((unit) => [unit, buckets[unit]] as const);
  const { keys, kinds, n, amounts } = changes;
  for (let i = 0; i < keys.length; i++) {
    const kind = kinds[i];
    if (kind === CALLER) {
      const [, contract, sender] = keysOf(keys[i]);
      ctx.batch.callers.add(contract, sender, sign * n[i]);
    } else if (kind === HOLD) {
      const [, asset, principal] = keysOf(keys[i]);
      ctx.batch.holders.add(asset, principal, BigInt(sign) * BigInt(amounts[i]), holdBuckets);
    }
    rows.add(keys[i], CHAIN_KIND[kind] ? chainCodes : keyCodes, sign * n[i], amounts[i], sign);
  }
  // A block's own row: n = 1, amount = seconds since its parent; b = '1' when that gap is known.
  const hasGap = parentTime !== undefined && b.block_height > 1;
  rows.add(changeKey('block', '', hasGap ? '1' : '0', ''), chainCodes, sign, hasGap ? String(time - parentTime) : '0', sign);
}

/** The units of the kinds kept in analytics_by_key only (pstx, holders): day and cycle. */
const UNITS_BY_KEY = ['day', 'cycle'] as const;
