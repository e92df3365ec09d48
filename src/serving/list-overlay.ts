// Dense lists in the serving store: [list, principal, ordinal] -> placement id, ordinals 0..n-1 in
// chain order, so a page at any offset is one short range read and a list's length is its total.
// A block that becomes canonical appends its placements; an orphaned block's placements are removed.
// Orphaned blocks are the newest ones (a reorg replaces the chain above a fork point), so removals
// hit the tail; one found deeper is still removed and the entries above it move down.
//
// Writes of one batch are gathered here and written at the end, because LMDB's asynchronous puts
// are not visible to reads until their transaction commits.
import type { ServingStore } from './store.ts';

/** The global list of canonical txs uses list 0 and principal ''. */
export const GLOBAL_LIST = 0;

/** How far from the tail a removal looks before giving up (a reorg deeper than this is not expected). */
const REMOVAL_WINDOW = 100_000;

class ListState {
  private readonly written = new Map<number, number | null>();

  constructor(private readonly store: ServingStore, readonly list: number, readonly principal: string, public length: number) {}

  at(ordinal: number): number | undefined {
    const w = this.written.get(ordinal);
    if (w !== undefined) return w ?? undefined;
    return this.store.lists.get([this.list, this.principal, ordinal]);
  }

  append(pid: number): void {
    this.written.set(this.length++, pid);
  }

  /** Removes `pid`; false when it is not within the window from the tail. */
  remove(pid: number): boolean {
    const stop = Math.max(0, this.length - REMOVAL_WINDOW);
    for (let o = this.length - 1; o >= stop; o--) {
      if (this.at(o) !== pid) continue;
      for (let k = o; k < this.length - 1; k++) this.written.set(k, this.at(k + 1)!);
      this.written.set(--this.length, null);
      return true;
    }
    return false;
  }

  flush(): void {
    for (const [o, pid] of this.written) {
      if (pid === null) void this.store.lists.remove([this.list, this.principal, o]);
      else void this.store.lists.put([this.list, this.principal, o], pid);
    }
  }
}

/** Number of entries in a stored list. */
export function storedListLength(store: ServingStore, list: number, principal: string): number {
  for (const { key } of store.lists.getRange({ start: [list, principal, Number.MAX_SAFE_INTEGER], end: [list, principal, -1], reverse: true, limit: 1 })) {
    return (key as [number, string, number])[2] + 1;
  }
  return 0;
}

/**
 * The writer's lengths of recently written lists, as its last batch left them. A list's length is
 * otherwise one reverse range read (a cursor opened and positioned: ~10x a get), taken for every
 * list a batch touches. Only the store's one writer keeps it: its batches are written in order, so
 * what it remembers is at least as new as what the store has committed. Bounded: the least
 * recently touched lists are forgotten first.
 */
export class ListLengths {
  private readonly lengths = new Map<string, number>();

  constructor(private readonly store: ServingStore, private readonly capacity = 262_144) {}

  get(list: number, principal: string): number {
    const key = `${list}|${principal}`;
    const known = this.lengths.get(key);
    return known ?? storedListLength(this.store, list, principal);
  }

  set(list: number, principal: string, length: number): void {
    const key = `${list}|${principal}`;
    this.lengths.delete(key);
    this.lengths.set(key, length);
    if (this.lengths.size > this.capacity) this.lengths.delete(this.lengths.keys().next().value!);
  }
}

export class ListOverlay {
  private readonly lists = new Map<string, ListState>();

  /** `lengths`: the writer's remembered lengths (else every list's length is read). */
  constructor(private readonly store: ServingStore, private readonly lengths?: ListLengths) {}

  private state(list: number, principal: string): ListState {
    const key = `${list}|${principal}`;
    let s = this.lists.get(key);
    if (!s) this.lists.set(key, (s = new ListState(this.store, list, principal, this.lengths ? this.lengths.get(list, principal) : storedListLength(this.store, list, principal))));
    return s;
  }

  append(list: number, principal: string, pid: number): void {
    this.state(list, principal).append(pid);
  }

  remove(list: number, principal: string, pid: number): boolean {
    return this.state(list, principal).remove(pid);
  }

  flush(): void {
    for (const s of this.lists.values()) {
      s.flush();
      this.lengths?.set(s.list, s.principal, s.length);
    }
  }
}
