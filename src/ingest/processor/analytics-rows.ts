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
  unit: string;
  kind: string;
  bucket: number;
  a: string;
  b: string;
  c: string;
  n: number;
  amount: bigint;
}

export class AnalyticsRows {
  private readonly byBucket = new Map<string, Sum>();
  private readonly byKey = new Map<string, Sum>();

  /** Adds one change of `kind` in one unit's bucket, to every table that reads the kind. */
  add(unit: Unit | 'all', kind: string, bucket: number, a: string, b: string, c: string, n: number, amount: bigint): void {
    const bucketFirst = BUCKET_KINDS.has(kind);
    const keyFirst = unit !== 'hour' && KEY_KINDS.has(kind);
    if (!bucketFirst && !keyFirst) return;
    const k = `${unit}\0${kind}\0${bucket}\0${a}\0${b}\0${c}`;
    if (bucketFirst) addTo(this.byBucket, k, unit, kind, bucket, a, b, c, n, amount);
    if (keyFirst) addTo(this.byKey, k, unit, kind, bucket, a, b, c, n, amount);
  }

  /** The summed rows of each table (those that sum to zero left out); taken once. */
  take(): { byBucket: Row[]; byKey: Row[] } {
    const out = { byBucket: rowsOf(this.byBucket), byKey: rowsOf(this.byKey) };
    this.byBucket.clear();
    this.byKey.clear();
    return out;
  }
}

function addTo(m: Map<string, Sum>, k: string, unit: string, kind: string, bucket: number, a: string, b: string, c: string, n: number, amount: bigint): void {
  const s = m.get(k);
  if (s) {
    s.n += n;
    s.amount += amount;
  } else m.set(k, { unit, kind, bucket, a, b, c, n, amount });
}

function rowsOf(m: Map<string, Sum>): Row[] {
  const rows: Row[] = [];
  for (const s of m.values()) if (s.n !== 0 || s.amount !== 0n) rows.push({ unit: s.unit, kind: s.kind, bucket: s.bucket, a: s.a, b: s.b, c: s.c, n: s.n, amount: s.amount });
  return rows;
}
