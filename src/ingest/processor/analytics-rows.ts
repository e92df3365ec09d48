// One batch's analytics rows, summed by key before they are inserted, each kind into the one table
// its readers read (src/http/analytics/queries.ts). A batch adds to the same buckets again and again
// (an import's batch spans thousands of blocks, most in one day and one cycle), so the engine then
// sorts and merges one row per key, not one per block: on the 100k-tx log the aggregates' inserted
// rows fell from ~2.7M to ~1M. A row that sums to zero is left out: readers sum (or fold with FINAL),
// for which a zero row and no row are the same.
//
// This runs on the processor's thread for every change of every block (13 per tx), so it is built
// for that: one string-keyed lookup per change (its kind/a/b/c key, made by the decode worker),
// then the change's few buckets (a batch's hours, days and cycles) found by a scan of one flat
// array of numbers, and amounts summed as numbers while they stay exact (BigInt only beyond 2^53).
// A map and an object per bucket cost about 1.5× the time, and the batch keeps every one of them
// until it is stored, which the collector copies from the young generation.
import type { Unit } from '../../stacks/buckets.ts';
import { keysOf } from '../../workers/analytics-changes.ts';
import type { Amount } from '../../serving/input.ts';

type Row = Record<string, unknown>;

/** Kinds read across all keys of a bucket range (chain series, top contracts and tokens). */
const BUCKET_KINDS = new Set(['tx', 'ptx', 'deploy', 'stx_xfer', 'block', 'call', 'caller', 'cevents', 'ucaller', 'ft']);
/** Kinds read by one key (a contract, an asset, a principal) over its buckets; never by hour. */
const KEY_KINDS = new Set(['ptx', 'call', 'caller', 'ft', 'nft', 'hold', 'holders', 'flow_in', 'flow_out', 'pbal', 'pstx']);

export const UNITS: ReadonlyArray<Unit | 'all'> = ['hour', 'day', 'cycle', 'all'];
const UNIT_CODE: Record<Unit | 'all', number> = { hour: 0, day: 1, cycle: 2, all: 3 };

/** A change's unit and bucket as one number (buckets are below 2^32). */
export const bucketCode = (unit: Unit | 'all', bucket: number): number => UNIT_CODE[unit] * 2 ** 32 + bucket;

interface Change {
  /** changeKey(kind, a, b, c): split once, when the batch's rows are taken. */
  key: string;
  /** Per bucket, three numbers: its bucketCode, n, and the amount while it is exact. */
  sums: number[];
  /** Amounts no longer exact, by the index of their bucket's code in `sums`. */
  big: Map<number, bigint> | null;
}

const MAX_EXACT = 2 ** 53;

export class AnalyticsRows {
  private readonly changes = new Map<string, Change>();

  /**
   * Adds a change to each of its buckets (`buckets`: bucketCode values). `key` is changeKey(kind, a,
   * b, c); `amount` (µSTX, a token's base units) is an exact integer number or a decimal string, and
   * `sign` ±1.
   */
  add(key: string, buckets: readonly number[], n: number, amount: Amount, sign: 1 | -1): void {
    let change = this.changes.get(key);
    if (!change) this.changes.set(key, (change = { key, sums: [], big: null }));
    const exact = typeof amount === 'number' ? sign * amount : amount.length < 16 ? sign * Number(amount) : NaN;
    const sums = change.sums;
    for (let b = 0; b < buckets.length; b++) {
      const code = buckets[b];
      let i = 0;
      while (i < sums.length && sums[i] !== code) i += 3;
      if (i === sums.length) sums.push(code, 0, 0);
      sums[i + 1] += n;
      const big = change.big?.get(i);
      if (big === undefined && !Number.isNaN(exact) && Math.abs(sums[i + 2] + exact) < MAX_EXACT) sums[i + 2] += exact;
      else (change.big ??= new Map()).set(i, (big ?? BigInt(sums[i + 2])) + BigInt(sign) * BigInt(amount));
    }
  }

  /**
   * The summed rows of each table (those that sum to zero left out), taken once, handed to `emit`
   * about `chunk` rows at a time (a key's rows are not split). A caller that encodes each chunk at
   * once keeps no row object for long: kept until the batch's insert, a batch's ~70k rows outlived
   * the young generation and were copied into the old one.
   */
  drain(emit: (table: 'analytics_by_bucket' | 'analytics_by_key', rows: Row[]) => void, chunk = 4096): void {
    let byBucket: Row[] = [];
    let byKey: Row[] = [];
    for (const { key, sums, big } of this.changes.values()) {
      const [kind, a, b, c] = keysOf(key);
      const toBucket = BUCKET_KINDS.has(kind);
      const toKey = KEY_KINDS.has(kind);
      for (let i = 0; i < sums.length; i += 3) {
        const code = sums[i];
        const n = sums[i + 1];
        const amount = big?.get(i) ?? sums[i + 2];
        if (n === 0 && (amount === 0 || amount === 0n)) continue;
        const unit = UNITS[Math.floor(code / 2 ** 32)];
        const bucket = code % 2 ** 32;
        const row = { unit, kind, bucket, a, b, c, n, amount };
        if (toBucket) byBucket.push(row);
        if (toKey && unit !== 'hour') byKey.push(row);
      }
      if (byBucket.length >= chunk) {
        emit('analytics_by_bucket', byBucket);
        byBucket = [];
      }
      if (byKey.length >= chunk) {
        emit('analytics_by_key', byKey);
        byKey = [];
      }
    }
    if (byBucket.length > 0) emit('analytics_by_bucket', byBucket);
    if (byKey.length > 0) emit('analytics_by_key', byKey);
    this.changes.clear();
  }
}
