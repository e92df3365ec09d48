// The chain-wide list of canonical txs: ordinal (u32) -> placement id, ordinals 0..n-1 in chain
// order, so a page at any offset is one short range read and the list's length is its total. A
// block that becomes canonical appends its placements; an orphaned block's are removed (the newest;
// one found deeper is still removed and the entries above it move down).
//
// Writes of one batch are gathered here and written at the end, because LMDB's asynchronous puts
// are not visible to reads until their transaction commits.
import type { ServingStore } from './store.ts';
import { ByteReader, ByteWriter } from './bytes.ts';

/** How far from the tail a removal looks before giving up (a reorg deeper than this is not expected). */
const REMOVAL_WINDOW = 100_000;
/** lmdb's put option (missing from its type declarations). */
const APPEND = { append: true } as unknown as number;

export const packPid = (pid: number): Buffer => new ByteWriter(8).uint(pid).bytes() as Buffer;
export const readPid = (b: Uint8Array): number => new ByteReader(b).uint();

/** Entries in the stored list. */
export function storedTxListLength(store: ServingStore): number {
  for (const key of store.txList.getKeys({ reverse: true, limit: 1 })) return (key as number) + 1;
  return 0;
}

export class TxListOverlay {
  private readonly written = new Map<number, number | null>();
  private readonly stored: number;

  constructor(
    private readonly store: ServingStore,
    public length: number,
  ) {
    this.stored = length;
  }

  private at(ordinal: number): number | undefined {
    const w = this.written.get(ordinal);
    if (w !== undefined) return w ?? undefined;
    const b = this.store.txList.getBinaryFast(ordinal);
    return b ? readPid(b) : undefined;
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

  /** Ordinals past the stored list's end are appended (in order: LMDB's MDB_APPEND). */
  flush(): void {
    for (const o of [...this.written.keys()].sort((a, b) => a - b)) {
      const pid = this.written.get(o)!;
      if (pid === null) void this.store.txList.remove(o);
      else void this.store.txList.put(o, packPid(pid), o >= this.stored ? APPEND : (undefined as unknown as number));
    }
  }
}
