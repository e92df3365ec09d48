// The first and last bucket holding data of a kind (or of one key) change only when chain data is
// stored, yet finding them cost two engine reads per answer, as much as the answer's own read. They
// are kept here for as long as the data version stays the same (a commit, a reorg included, moves it),
// as are other small facts answers share (the burn blocks a fork replaced).
export type Bounds = { first: number; last: number } | undefined;

/** More keys than this (every contract, asset and principal asked for) and the memo starts over. */
const MAX_KEYS = 100_000;

let at: number | undefined;
const memo = new Map<string, Promise<unknown>>();

/** `read()`'s bounds, read once per key and data version; without a version, read every time. */
export const memoBounds = (version: number | undefined, key: string, read: () => Promise<Bounds>): Promise<Bounds> => memoPerVersion(version, key, read);

/** `read()`'s answer, read once per key and data version; without a version, read every time. Keys
 *  are shared by every caller: each names what it holds. */
export function memoPerVersion<T>(version: number | undefined, key: string, read: () => Promise<T>): Promise<T> {
  if (version === undefined) return read();
  if (version !== at || memo.size >= MAX_KEYS) {
    memo.clear();
    at = version;
  }
  let p = memo.get(key) as Promise<T> | undefined;
  if (!p) {
    p = read();
    memo.set(key, p);
    // A failed read is not kept: the next answer reads again.
    p.catch(() => memo.get(key) === p && memo.delete(key));
  }
  return p;
}
