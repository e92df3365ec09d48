// The chain-wide list of canonical txs: ordinals 0..n-1 in chain order -> placement id, stored in
// chunks of CHUNK (key: the chunk's index, u32 big-endian; value: its placement ids as varints), so a batch
// writes the one or two chunks at the list's tail instead of a value per tx, and a page is a get or
// two. A block that becomes canonical appends its placements; an orphaned block's are removed (the
// newest; one found deeper is still removed and the entries above it move down).
//
// Writes of one batch are gathered here and written at the end: each chunk once a batch, not once
// a tx.
import type { ServingStore } from './store.ts';
import { ByteReader, ByteWriter, readU32, u32Key } from './bytes.ts';

export const CHUNK = 64;
/** How far from the tail a removal looks before giving up (a reorg deeper than this is not expected). */
const REMOVAL_WINDOW = 100_000;

const packChunk = (pids: readonly number[]): Buffer => {
  const w = new ByteWriter(pids.length * 6);
  for (const pid of pids) w.uint(pid);
  return w.bytes() as Buffer;
};

function readChunk(b: Uint8Array): number[] {
  const r = new ByteReader(b);
  const out: number[] = [];
  while (!r.done) out.push(r.uint());
  return out;
}

/** Entries in the stored list. */
export function storedTxListLength(store: ServingStore): number {
  for (const { key, value } of store.txList.getRange({ reverse: true, limit: 1 })) return readU32(key) * CHUNK + readChunk(value).length;
  return 0;
}

/** Placement ids of the list, newest first, from `top` (an ordinal) down, at most `limit`. */
export function txListFrom(store: ServingStore, top: number, limit: number): number[] {
  const out: number[] = [];
  for (let c = Math.floor(top / CHUNK); c >= 0 && out.length < limit && top >= 0; c--) {
    const b = store.txList.getBinaryFast(u32Key(c));
    if (!b) break;
    const pids = readChunk(b);
    for (let i = top - c * CHUNK; i >= 0 && out.length < limit; i--, top--) out.push(pids[i]);
  }
  return out;
}

export class TxListOverlay {
  /** Chunks read or changed by this batch, by index (changed ones are written). */
  private readonly chunks = new Map<number, number[]>();
  private readonly changed = new Set<number>();

  constructor(
    private readonly store: ServingStore,
    public length: number,
  ) {}

  private chunk(c: number): number[] {
    let pids = this.chunks.get(c);
    if (!pids) {
      const b = this.store.txList.getBinaryFast(u32Key(c));
      this.chunks.set(c, (pids = b ? readChunk(b) : []));
    }
    return pids;
  }

  private at(o: number): number {
    return this.chunk(Math.floor(o / CHUNK))[o % CHUNK];
  }

  private set(o: number, pid: number): void {
    const c = Math.floor(o / CHUNK);
    this.chunk(c)[o % CHUNK] = pid;
    this.changed.add(c);
  }

  append(pid: number): void {
    this.set(this.length++, pid);
  }

  /** Removes `pid`; false when it is not within the window from the tail. */
  remove(pid: number): boolean {
    const stop = Math.max(0, this.length - REMOVAL_WINDOW);
    for (let o = this.length - 1; o >= stop; o--) {
      if (this.at(o) !== pid) continue;
      for (let k = o; k < this.length - 1; k++) this.set(k, this.at(k + 1));
      this.length--;
      this.changed.add(Math.floor(this.length / CHUNK));
      return true;
    }
    return false;
  }

  flush(): void {
    for (const c of this.changed) {
      const count = Math.min(CHUNK, Math.max(0, this.length - c * CHUNK));
      if (count === 0) void this.store.txList.remove(u32Key(c));
      else void this.store.txList.put(u32Key(c), packChunk(this.chunk(c).slice(0, count)));
    }
  }
}
