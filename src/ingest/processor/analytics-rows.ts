// One batch's analytics rows, summed by key before they are inserted, each kind into the one table
// its readers read (src/http/analytics/queries.ts). A batch adds to the same buckets again and again
// (an import's batch spans thousands of blocks, most in one day and one cycle), so the engine then
// sorts and merges one row per key, not one per block: on the 100k-tx log the aggregates' inserted
// rows fell from ~2.7M to ~1M. A row that sums to zero is left out: readers sum (or fold with FINAL),
// for which a zero row and no row are the same.
//
// This runs on the processor's thread for every change of every block (13 per tx), so it is built
// for that: one string-keyed lookup per change (its kind/a/b/c key, made by the decode worker),
// then the change's buckets in a small number-keyed map, and amounts summed as numbers while they
// stay exact (BigInt only beyond 2^53): 1.1-1.7 µs per change and unit against 1.6-2.4 with a
// string key per unit and BigInts.
import type { Unit } from '../../stacks/buckets.ts';
import { keysOf } from '../../workers/analytics-changes.ts';

type Row = Record<string, unknown>;

/** Kinds read across all keys of a bucket range (chain series, top contracts and tokens). */
const BUCKET_KINDS = new Set(['tx', 'ptx', 'deploy', 'stx_xfer', 'block', 'call', 'caller', 'cevents', 'ucaller', 'ft']);
/** Kinds read by one key (a contract, an asset, a principal) over its buckets; never by hour. */
const KEY_KINDS = new Set(['ptx', 'call', 'caller', 'ft', 'nft', 'hold', 'holders', 'flow_in', 'flow_out', 'pbal', 'pstx']);

export const UNITS: ReadonlyArray<Unit | 'all'> = ['hour', 'day', 'cycle', 'all'];
const UNIT_CODE: Record<Unit | 'all', number> = { hour: 0, day: 1, cycle: 2, all: 3 };

/** A change's unit and bucket as one number (buckets are below 2^32). */
export const bucketCode = (unit: Unit | 'all', bucket: number): number => UNIT_CODE[unit] * 2 ** 32 + bucket;

interface Sum {
  n: number;
  /** The amount while it is an exact number; `big` once it is not. */
  amount: number;
  big: bigint | null;
}

interface Change {
  /** changeKey(kind, a, b, c): split once, when the batch's rows are taken. */
  key: string;
  byBucket: Map<number, Sum>;
}

const MAX_EXACT = 2 ** 53;

export class AnalyticsRows {
  private readonly changes = new Map<string, Change>();

  /**
   * Adds a change to each of its buckets (`buckets`: bucketCode values). `key` is changeKey(kind, a,
   * b, c); `amount` is a decimal string (µSTX, a token's base units) and `sign` ±1.
   */
  add(key: string, buckets: readonly number[], n: number, amount: string, sign: 1 | -1): void {
    let change = this.changes.get(key);
    if (!change) this.changes.set(key, (change = { key, byBucket: new Map() }));
    const exact = amount.length < 16 ? sign * Number(amount) : NaN;
    for (const code of buckets) {
      let s = change.byBucket.get(code);
      if (!s) change.byBucket.set(code, (s = { n: 0, amount: 0, big: null }));
      s.n += n;
      if (s.big === null && !Number.isNaN(exact) && Math.abs(s.amount + exact) < MAX_EXACT) s.amount += exact;
      else s.big = (s.big ?? BigInt(s.amount)) + BigInt(sign) * BigInt(amount);
    }
  }

  /** The summed rows of each table (those that sum to zero left out); taken once. */
  take(): { byBucket: Row[]; byKey: Row[] } {
    const byBucket: Row[] = [];
    const byKey: Row[] = [];
    for (const { key, byBucket: sums } of this.changes.values()) {
      const [kind, a, b, c] = keysOf(key);
      const toBucket = BUCKET_KINDS.has(kind);
      const toKey = KEY_KINDS.has(kind);
      for (const [code, s] of sums) {
        const amount = s.big ?? s.amount;
        if (s.n === 0 && (amount === 0 || amount === 0n)) continue;
        const unit = UNITS[Math.floor(code / 2 ** 32)];
        const bucket = code % 2 ** 32;
        const row = { unit, kind, bucket, a, b, c, n: s.n, amount };
        if (toBucket) byBucket.push(row);
        if (toKey && unit !== 'hour') byKey.push(row);
      }
    }
    this.changes.clear();
    return { byBucket, byKey };
  }
}
