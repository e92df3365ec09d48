// The v3 lists' cursors, as the reference builds them: a transaction is placed by
// `block_height:microblock_sequence:tx_index` (anchored txs have microblock_sequence 2^31-1), and a
// page lists the items at or below its cursor, newest first. Our lists are offset lists in that
// same order, so a cursor is turned into an offset by binary search over the list.

/** Where a transaction sits in the chain, the key v3 lists are ordered by (descending). */
export interface TxKey {
  block_height: number;
  microblock_sequence: number;
  tx_index: number;
}

export const ANCHORED_SEQUENCE = 2147483647;
/** The reference's largest tx_index, for a cursor naming a whole block (`h:0:0`). */
const MAX_TX_INDEX = 0x7fff;

export const TX_CURSOR_PATTERN = '^[0-9]+:[0-9]+:[0-9]+$';

export const encodeTxCursor = (k: TxKey): string => `${k.block_height}:${k.microblock_sequence}:${k.tx_index}`;

export function parseTxCursor(cursor: string): TxKey {
  const [h, s, i] = cursor.split(':').map((p) => Number(p));
  return { block_height: h, microblock_sequence: s, tx_index: i };
}

/** Negative when `a` sorts before `b` in a v3 list (newer first). */
export function newerFirst(a: TxKey, b: TxKey): number {
  return b.block_height - a.block_height || b.microblock_sequence - a.microblock_sequence || b.tx_index - a.tx_index;
}

/** The envelope of every v3 list. */
export interface CursorPage<T> {
  total: number;
  limit: number;
  cursor: { next: string | null; previous: string | null; current: string | null };
  results: T[];
}

/** A list in v3 order that can be read at an offset (how our v1/v2 lists are served). */
export interface OffsetList<T> {
  /** How many items the offset list holds. */
  length(): Promise<number>;
  /** Up to `limit` items from `offset`. */
  slice(offset: number, limit: number): Promise<T[]>;
}

/**
 * The first offset whose item satisfies `atOrBelow` (items are ordered so that it flips once). The
 * length is a lower bound (a twin's total may leave out items it lists): past it, the search
 * gallops on until it finds an accepted item or the end.
 */
export async function firstOffsetWhere<T>(list: OffsetList<T>, atOrBelow: (item: T) => boolean): Promise<number> {
  let lo = 0;
  let hi = await list.length();
  for (let step = 1; ; step *= 2) {
    const [item] = await list.slice(hi, 1);
    if (!item || atOrBelow(item)) break;
    lo = hi + 1;
    hi += step;
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const [item] = await list.slice(mid, 1);
    if (!item || atOrBelow(item)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The offset a transaction cursor names: the first item at or below it. As the reference, a cursor
 * `h:0:0` that names no item is the start of block h (so `h:0:0` reads a block from its newest tx).
 */
export async function txCursorOffset<T>(list: OffsetList<T>, cursor: string, keyOf: (item: T) => TxKey): Promise<number> {
  const key = parseTxCursor(cursor);
  const offset = await firstOffsetWhere(list, (item) => newerFirst(keyOf(item), key) >= 0);
  if (key.microblock_sequence !== 0 || key.tx_index !== 0) return offset;
  const [item] = await list.slice(offset, 1);
  if (item && newerFirst(keyOf(item), key) === 0) return offset;
  const blockStart = { block_height: key.block_height, microblock_sequence: ANCHORED_SEQUENCE, tx_index: MAX_TX_INDEX };
  return firstOffsetWhere(list, (i) => newerFirst(keyOf(i), blockStart) >= 0);
}

/**
 * One page from `offset`: `limit` items, the next page's cursor (the item after them), the
 * previous page's (the item `limit` above the first) and the current one (the first item).
 */
export async function pageAt<T>(list: OffsetList<T>, offset: number, limit: number, cursorOf: (item: T) => string): Promise<{ results: T[]; cursor: CursorPage<T>['cursor'] }> {
  const [items, above] = await Promise.all([list.slice(offset, limit + 1), offset > 0 ? list.slice(Math.max(0, offset - limit), 1) : Promise.resolve([])]);
  const results = items.slice(0, limit);
  const first = results[0];
  return {
    results,
    cursor: {
      next: items.length > limit ? cursorOf(items[limit]) : null,
      previous: first && above[0] ? cursorOf(above[0]) : null,
      current: first ? cursorOf(first) : null,
    },
  };
}
