// Canonical filtering of fact rows that carry their placement (the block and microblock that
// included their tx), through the overlay tables, for route families that list such rows.
import type { Store } from '../storage/client.ts';
import { placementKey, resolvePlacements } from './tx/queries.ts';

export interface Placed {
  index_block_hash: string;
  microblock_hash: string;
  block_height: number;
}

/** The rows on the canonical chain (an unconfirmed microblock's while its stream is live), in order. */
export async function canonicalRows<T extends Placed>(store: Store, list: readonly T[]): Promise<T[]> {
  const states = await resolvePlacements(store, list);
  return list.filter((r) => {
    const s = states.get(placementKey(r));
    return !!s && s.canonical && s.microblock_canonical;
  });
}

/**
 * A page of canonical rows from a source read in its final order: raw chunks are read until the
 * page is filled (non-canonical rows are few: those of orphaned forks).
 */
export async function canonicalPage<T extends Placed>(store: Store, read: (limit: number, offset: number) => Promise<T[]>, limit: number, offset: number): Promise<T[]> {
  const want = offset + limit;
  const out: T[] = [];
  let chunk = Math.max(want, 64);
  for (let rawOffset = 0; ; ) {
    const raw = await read(chunk, rawOffset);
    out.push(...(await canonicalRows(store, raw)));
    if (out.length >= want || raw.length < chunk) break;
    rawOffset += raw.length;
    chunk *= 2;
  }
  return out.slice(offset, want);
}
