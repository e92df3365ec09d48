// Each fungible token's holder count per day and cycle (kind 'holders' in analytics_by_key,
// sql/0007), kept as signed ±1 rows in the bucket of the block where a principal's canonical balance
// turns positive or back to zero, and where a reorg undoes that. Counting holders from the per-bucket
// balance changes instead costs a window over every (holder, bucket) row of the token per answer,
// which grows with its history, not with the buckets asked.
//
// The pairs' balances live in ft_holder_pairs, read by key once per batch when the batch is stored
// (inserts run one batch at a time in order, so the stored balances are the earlier batches'). A
// batch redone after a crash may find its own rows there (marked with its last entry) and takes its
// net change back out, so it writes the same rows as the first attempt. Changes are replayed in the
// order the batch applied them: an orphaned block's are undone after the blocks above it.
import type { Store } from '../../storage/client.ts';
import type { Unit } from '../../stacks/buckets.ts';
import { valuesBeforeBatch, type PairTable } from './pair-lookup.ts';

type Row = Record<string, unknown>;

interface Change {
  asset: string;
  principal: string;
  change: bigint;
  /** The block's bucket in each unit the counts are kept in. */
  buckets: ReadonlyArray<readonly [Unit, number]>;
}

/** A token's holder count change in one bucket. */
export interface HolderCount {
  unit: Unit;
  asset: string;
  bucket: number;
  n: number;
}

const pairKey = (asset: string, principal: string) => `${asset}\n${principal}`;

const FT_HOLDER_PAIRS: PairTable = { table: 'ft_holder_pairs', keys: ['asset', 'principal'], value: 'balance' };

export class HolderTransitions {
  private changes: Change[] = [];

  add(asset: string, principal: string, change: bigint, buckets: ReadonlyArray<readonly [Unit, number]>): void {
    if (change !== 0n) this.changes.push({ asset, principal, change, buckets });
  }

  /** The batch's changes: ±1 per token and bucket (its 'holders' counts) and the changed pairs' new
   *  balances (ft_holder_pairs rows), from the balances stored before it. `logTo`: the batch's last
   *  entry. Taken once. */
  async take(store: Store, logTo: number): Promise<{ counts: HolderCount[]; pairs: Row[] }> {
    const changes = this.changes;
    this.changes = [];
    const net = new Map<string, { asset: string; principal: string; d: bigint }>();
    for (const c of changes) {
      const k = pairKey(c.asset, c.principal);
      const e = net.get(k) ?? net.set(k, { asset: c.asset, principal: c.principal, d: 0n }).get(k)!;
      e.d += c.change;
    }
    const nets = [...net.values()];
    const before = await valuesBeforeBatch(store, FT_HOLDER_PAIRS, nets.map((e) => [e.asset, e.principal, e.d] as const), logTo);
    const balance = new Map<string, bigint>(nets.map((e, i) => [pairKey(e.asset, e.principal), before[i]]));
    const counts = new Map<string, HolderCount>();
    for (const c of changes) {
      const k = pairKey(c.asset, c.principal);
      const was = balance.get(k)!;
      const now = was + c.change;
      balance.set(k, now);
      const t = Number(now > 0n) - Number(was > 0n);
      if (t === 0) continue;
      for (const [unit, bucket] of c.buckets) {
        const key = `${unit}\n${c.asset}\n${bucket}`;
        const row = counts.get(key) ?? counts.set(key, { unit, asset: c.asset, bucket, n: 0 }).get(key)!;
        row.n += t;
      }
    }
    const pairs = [...net].filter(([, e]) => e.d !== 0n).map(([k, e]) => ({ asset: e.asset, principal: e.principal, balance: balance.get(k)!.toString(), log_to: logTo }));
    return { counts: [...counts.values()].filter((r) => r.n !== 0), pairs };
  }
}
