// Cursor pages over small lists held whole (balances, a tx's balance changes): the page starts at
// the first item at or after the cursor in list order.
import type { CursorPage } from './cursor.ts';

/**
 * A page of `list` from the first item `atOrAfter` the cursor accepts. The previous cursor is
 * the item `limit` above the first, or the list's first item when fewer precede it (the
 * reference's rule for these lists).
 */
export function keysetPage<T>(list: readonly T[], q: { limit: number; cursor?: string }, cursorOf: (item: T) => string, atOrAfter: (item: T, cursor: string) => boolean): Omit<CursorPage<T>, 'total'> & { total: number } {
  let start = q.cursor ? list.findIndex((i) => atOrAfter(i, q.cursor!)) : 0;
  if (start < 0) start = list.length;
  const results = list.slice(start, start + q.limit);
  const at = (i: number) => (list[i] !== undefined ? cursorOf(list[i]) : null);
  return {
    total: results.length ? list.length : 0,
    limit: q.limit,
    cursor: { next: at(start + q.limit), previous: results.length && start > 0 ? at(Math.max(0, start - q.limit)) : null, current: at(start) },
    results,
  };
}
