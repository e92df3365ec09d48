// A batch's changes to principals' lists (principal-list.ts), gathered and written at its end
// (each chunk and header once a batch, not once an entry). A block that becomes canonical appends
// its entries; an orphaned block's entries are removed — they are the newest, since a reorg
// replaces the chain above a fork point; one found deeper is still removed and the entries above
// it move down a place (their gaps change with them).
import type { ServingStore } from './store.ts';
import { CHUNK_ENTRIES, EMPTY_HEADER, HEADER_KEY, LIST_FILTERS, chunkKey, inList, packEntryView, packHeader, readEntry, readHeader, type ListEntry, type ListHeader } from './principal-list.ts';
import { ChunkEntries } from './chunk-entries.ts';

/** How far from the tail a removal looks before giving up (a reorg deeper than this is not expected). */
const REMOVAL_WINDOW = 100_000;

/**
 * The writer's headers of recently written lists, as its last committed batch left them: a list's
 * header is otherwise read for every list a batch touches. Only the store's one writer keeps it.
 * Bounded: the least recently touched are forgotten first.
 */
export class ListHeaders {
  private readonly headers = new Map<number, ListHeader>();

  constructor(
    private readonly store: ServingStore,
    private readonly capacity = 262_144,
  ) {}

  get(id: number): ListHeader {
    const known = this.headers.get(id);
    if (known) return known;
    const b = this.store.lists.getBinaryFast(chunkKey(id, HEADER_KEY));
    return b ? readHeader(b) : EMPTY_HEADER;
  }

  set(id: number, h: ListHeader): void {
    this.headers.delete(id);
    this.headers.set(id, h);
    if (this.headers.size > this.capacity) this.headers.delete(this.headers.keys().next().value!);
  }
}

/** An entry to append: the writer knows everything but its gaps. */
export type NewEntry = Omit<ListEntry, 'gaps'>;

class ListState {
  /** Chunks read or changed by this batch: their entries as they will be stored. */
  private readonly chunks = new Map<number, ChunkEntries>();
  private readonly changed = new Set<number>();
  readonly header: ListHeader;

  constructor(
    private readonly store: ServingStore,
    readonly id: number,
    stored: ListHeader,
  ) {
    this.header = { n: stored.n, lengths: [...stored.lengths] };
  }

  private entries(c: number): ChunkEntries {
    let e = this.chunks.get(c);
    if (!e) {
      const b = this.store.lists.getBinaryFast(chunkKey(this.id, c));
      this.chunks.set(c, (e = new ChunkEntries(b ?? undefined)));
    }
    return e;
  }

  private bytesAt(k: number): Uint8Array | undefined {
    return this.entries(Math.floor(k / CHUNK_ENTRIES)).at(k % CHUNK_ENTRIES);
  }

  private setBytes(k: number, bytes: Uint8Array): void {
    const c = Math.floor(k / CHUNK_ENTRIES);
    this.entries(c).set(k % CHUNK_ENTRIES, bytes);
    this.changed.add(c);
  }

  private at(k: number): ListEntry | undefined {
    const b = this.bytesAt(k);
    return b && readEntry(b);
  }

  append(e: NewEntry): void {
    const h = this.header;
    // Packed at once: most entries are appended and never read again.
    this.setBytes(h.n, packEntryView(e, undefined, h));
    h.n++;
    for (let l = 0; l < h.lengths.length; l++) if (inList(l, e.roles)) h.lengths[l]++;
  }

  /** Removes the entry of `pid`; false when it is not within the window from the tail. */
  remove(pid: number): boolean {
    const h = this.header;
    const stop = Math.max(0, h.n - REMOVAL_WINDOW);
    for (let k = h.n - 1; k >= stop; k--) {
      const removed = this.at(k);
      if (removed?.pid !== pid) continue;
      // An entry above it keeps its gap in a list the removed entry was in, and has one fewer
      // entry before it outside a list it was not in.
      const shift = LIST_FILTERS.map((_, l) => (inList(l, removed.roles) ? 0 : 1));
      for (let j = k + 1; j < h.n; j++) {
        const e = this.at(j)!;
        this.setBytes(j - 1, packEntryView(e, e.gaps.map((g, l) => g - shift[l])));
      }
      h.n--;
      this.changed.add(Math.floor(h.n / CHUNK_ENTRIES));
      shift.forEach((s, l) => (h.lengths[l] -= 1 - s));
      return true;
    }
    return false;
  }

  flush(): void {
    const lists = this.store.lists;
    for (const c of this.changed) {
      const count = Math.min(CHUNK_ENTRIES, Math.max(0, this.header.n - c * CHUNK_ENTRIES));
      if (count === 0) void lists.remove(chunkKey(this.id, c));
      else void lists.put(chunkKey(this.id, c), this.entries(c).pack(count) as Buffer);
    }
    if (this.header.n === 0) void lists.remove(chunkKey(this.id, HEADER_KEY));
    else void lists.put(chunkKey(this.id, HEADER_KEY), packHeader(this.header) as Buffer);
  }
}

export class PrincipalListOverlay {
  private readonly lists = new Map<number, ListState>();

  constructor(
    private readonly store: ServingStore,
    private readonly headers: ListHeaders,
  ) {}

  private state(id: number): ListState {
    let s = this.lists.get(id);
    if (!s) this.lists.set(id, (s = new ListState(this.store, id, this.headers.get(id))));
    return s;
  }

  append(id: number, e: NewEntry): void {
    this.state(id).append(e);
  }

  remove(id: number, pid: number): boolean {
    return this.state(id).remove(pid);
  }

  /** `tick`: called per list written (the writer's in-write page release). */
  flush(tick: () => void = () => {}): void {
    for (const s of this.lists.values()) {
      s.flush();
      tick();
    }
  }

  /** After the batch committed: the writer's headers move on. */
  committed(): void {
    for (const s of this.lists.values()) this.headers.set(s.id, s.header);
  }
}
