// One batch's analytics rows, summed by key before they are inserted, each kind into the one table
// its readers read (src/http/analytics/queries.ts). A batch adds to the same buckets again and again
// (an import's batch spans thousands of blocks, most in one day and one cycle), so the engine then
// parses, sorts and merges one row per key, not one per block: on the 100k-tx log the aggregates'
// inserted rows fell from ~25 to ~8 per tx. A row that sums to zero is left out: readers sum (or
// fold with FINAL), for which a zero row and no row are the same.
import type { Unit } from './analytics-buckets.ts';

type Row = Record<string, unknown>;

/** Kinds read across all keys of a bucket range (chain series, top contracts and tokens). */
const BUCKET_KINDS = new Set(['tx', 'ptx', 'deploy', 'stx_xfer', 'block', 'call', 'caller', 'cevents', 'ucaller', 'ft']);
/** Kinds read by one key (a contract, an asset, a principal) over its buckets; never by hour. */
const KEY_KINDS = new Set(['ptx', 'call', 'caller', 'ft', 'nft', 'hold', 'holders', 'flow_in', 'flow_out', 'pbal', 'pstx']);

interface Sum {
  kind: string;
  a: string;
  b: string;
  c: string;
  n: number;
  amount: bigint;
}

/** The sums of one unit's bucket, in one table: kind/a/b/c key -> sum. */
class BucketSums {
  readonly sums = new Map<string, Sum>();
  constructor(readonly unit: string, readonly bucket: number) {}

  add(key: string, kind: string, a: string, b: string, c: string, n: number, amount: bigint): void {
    const s = this.sums.get(key);
    if (s) {
      s.n += n;
      s.amount += amount;
    } else this.sums.set(key, { kind, a, b, c, n, amount });
  }
}

/** One unit's bucket in both tables; a block's changes are added to one of these per unit. */
export class BucketGroup {
  constructor(readonly unit: Unit | 'all', private readonly byBucket: BucketSums, private readonly byKey: BucketSums) {}

  /** Adds one change of `kind` to every table that reads the kind. `key` identifies (kind, a, b, c)
   *  and is the same string for all of a change's units (its hash is computed once). */
  add(key: string, kind: string, a: string, b: string, c: string, n: number, amount: bigint): void {
    if (BUCKET_KINDS.has(kind)) this.byBucket.add(key, kind, a, b, c, n, amount);
    if (this.unit !== 'hour' && KEY_KINDS.has(kind)) this.byKey.add(key, kind, a, b, c, n, amount);
  }
}

export class AnalyticsRows {
  private readonly groups = new Map<string, BucketGroup>();
  private readonly byBucket: BucketSums[] = [];
  private readonly byKey: BucketSums[] = [];

  /** The sums of a unit's bucket (looked up once per block and unit, not per change). */
  group(unit: Unit | 'all', bucket: number): BucketGroup {
    const where = `${unit}\0${bucket}`;
    let g = this.groups.get(where);
    if (!g) {
      const sums = [new BucketSums(unit, bucket), new BucketSums(unit, bucket)];
      this.byBucket.push(sums[0]);
      this.byKey.push(sums[1]);
      this.groups.set(where, (g = new BucketGroup(unit, sums[0], sums[1])));
    }
    return g;
  }

  /** The summed rows of each table (those that sum to zero left out); taken once. */
  take(): { byBucket: Row[]; byKey: Row[] } {
    const out = { byBucket: rowsOf(this.byBucket), byKey: rowsOf(this.byKey) };
    this.groups.clear();
    this.byBucket.length = 0;
    this.byKey.length = 0;
    return out;
  }
}

/** The key of a change within its bucket. */
export const changeKey = (kind: string, a: string, b: string, c: string): string => `${kind}\0${a}\0${b}\0${c}`;

function rowsOf(list: readonly BucketSums[]): Row[] {
  const rows: Row[] = [];
  for (const { unit, bucket, sums } of list) {
    for (const s of sums.values()) if (s.n !== 0 || s.amount !== 0n) rows.push({ unit, kind: s.kind, bucket, a: s.a, b: s.b, c: s.c, n: s.n, amount: s.amount });
  }
  return rows;
}
