// Canonical filtering of fact rows that carry their placement (the block and microblock that
// included their tx), through the overlay tables, for route families that list such rows.
import type { Store } from '../../storage/client.ts';
import { keyOf, placementKey, resolvePlacements, streamedTxIndexes } from '../tx/queries.ts';

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
 * Canonical rows of a source read in chunks (non-canonical rows are few: those of orphaned forks),
 * until `enough` says so or the source ends.
 */
async function readCanonical<T extends Placed>(store: Store, read: (limit: number, offset: number) => Promise<T[]>, want: number, enough: (out: T[], raw: T[]) => boolean): Promise<T[]> {
  const out: T[] = [];
  let chunk = Math.max(want, 64);
  for (let rawOffset = 0; ; ) {
    const raw = await read(chunk, rawOffset);
    out.push(...(await canonicalRows(store, raw)));
    if (raw.length < chunk || enough(out, raw)) return out;
    rawOffset += raw.length;
    chunk *= 2;
  }
}

/** A page of canonical rows from a source read in its final order. */
export async function canonicalPage<T extends Placed>(store: Store, read: (limit: number, offset: number) => Promise<T[]>, limit: number, offset: number): Promise<T[]> {
  const want = offset + limit;
  return (await readCanonical(store, read, want, (out) => out.length >= want)).slice(offset, want);
}

/** A tx event's fact row, with its tx's place in the block. */
export interface PlacedEvent extends Placed {
  tx_id: string;
  tx_index: number;
  event_index: number;
}

/**
 * The canonical rows in the reference's newest-first order of events: block height, microblock
 * sequence (an anchored tx's is the highest, 2147483647), tx index (a streamed tx's as its stream
 * numbered it, the row the reference keeps), event index, all descending.
 */
export async function inReferenceOrder<T extends PlacedEvent>(store: Store, list: readonly T[]): Promise<T[]> {
  const [states, streamed] = await Promise.all([resolvePlacements(store, list), streamedTxIndexes(store, list)]);
  const keyed = list.flatMap((r) => {
    const s = states.get(placementKey(r));
    return s?.canonical && s.microblock_canonical ? [{ r, seq: s.microblock_sequence, tx: streamed.get(keyOf(r)) ?? r.tx_index }] : [];
  });
  keyed.sort((a, b) => b.r.block_height - a.r.block_height || b.seq - a.seq || b.tx - a.tx || b.r.event_index - a.r.event_index);
  return keyed.map((k) => k.r);
}

/**
 * A page of canonical event rows in the reference's order (inReferenceOrder), from a source read by
 * height, tx index and event index descending: that order differs only within a height, so rows are
 * read until the height of the page's last row is complete.
 */
export async function canonicalEventPage<T extends PlacedEvent>(store: Store, read: (limit: number, offset: number) => Promise<T[]>, limit: number, offset: number): Promise<T[]> {
  const want = offset + limit;
  const complete = (out: T[], raw: T[]) => out.length >= want && raw[raw.length - 1].block_height < out[want - 1].block_height;
  return (await inReferenceOrder(store, await readCanonical(store, read, want, complete))).slice(offset, want);
}
