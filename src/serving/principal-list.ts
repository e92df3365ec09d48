// A principal's txs in the serving store: one dense list per principal, in chain order, stored in
// chunks of CHUNK_ENTRIES entries keyed [principal id, chunk] (8 bytes, big-endian, so one
// principal's chunks sit together and a batch rewrites its tail chunk: one write per principal and
// batch, not one per entry). Each entry says which tx placement it is, the principal's roles in it,
// its chain position, what the principal did there (the fact), and, for each reference list (v1,
// with transfers, v2, own nonces: subsets by role), how many entries before it are not in that list
// — so an entry's ordinal in a reference list is its ordinal minus that gap, a page at any offset of
// any reference list is found by a binary search on those (monotonic) ordinals, and the newest page
// by walking back from the tail. One header value per principal, at the chunk 0xFFFFFFFF (beside its
// tail), holds the lengths.
import type { Database } from 'lmdb';
import { ByteReader, ByteWriter, u32Key } from './bytes.ts';
import { OWN_TX_ROLES, V1_TX_ROLES, V2_TX_ROLES, WITH_TRANSFERS_ROLES, listsRow, type RoleFilter } from '../stacks/roles.ts';
import { PIDS_PER_ENTRY } from './changes.ts';
import { entryRange } from './chunk-entries.ts';

/** The reference lists, in the order their gaps are stored. */
export const LIST = { V1: 0, WITH_TRANSFERS: 1, V2: 2, OWN: 3 } as const;
export type ListId = (typeof LIST)[keyof typeof LIST];
export const LIST_FILTERS: readonly RoleFilter[] = [V1_TX_ROLES, WITH_TRANSFERS_ROLES, V2_TX_ROLES, OWN_TX_ROLES];
const LISTS = LIST_FILTERS.length;

export const CHUNK_ENTRIES = 32;
export const HEADER_KEY = 0xffff_ffff;
/** The key of a chunk (or of the header, HEADER_KEY). */
export const chunkKey = (principalId: number, chunk: number): Buffer => u32Key(principalId, chunk);

export interface ListHeader {
  /** Entries in all. */
  n: number;
  /** Entries in each reference list. */
  lengths: number[];
}

export const EMPTY_HEADER: ListHeader = { n: 0, lengths: [0, 0, 0, 0] };

export const packHeader = (h: ListHeader): Uint8Array => {
  const w = new ByteWriter(16).uint(h.n);
  for (const l of h.lengths) w.uint(l);
  return w.bytes();
};

export function readHeader(bytes: Uint8Array): ListHeader {
  const r = new ByteReader(bytes);
  const n = r.uint();
  const lengths: number[] = [];
  for (let i = 0; i < LISTS; i++) lengths.push(r.uint());
  return { n, lengths };
}

/** Chain position: the list's order (microblock_sequence 2147483647 for anchored txs). */
export interface ChainPosition {
  block_height: number;
  microblock_sequence: number;
  tx_index: number;
}

export interface ListEntry extends ChainPosition {
  pid: number;
  roles: number;
  gaps: number[];
  /** The fact's bytes (principal-fact.ts), as the decode worker packed them. */
  fact: Uint8Array;
}

const ANCHORED = 2147483647;

const scratch = new ByteWriter(256);

/** `gaps`: the entry's gaps (its own by default); or `h`: the list's header before it (an appended
 *  entry's gaps are the ordinal less each list's length). */
export function packEntry(e: Omit<ListEntry, 'gaps'> & { gaps?: number[] }, gaps = e.gaps, h?: ListHeader): Uint8Array {
  return packEntryView(e, gaps, h).slice();
}

/** packEntry's bytes as a view of a scratch buffer, valid until the next call (for a caller that
 *  copies them at once). */
export function packEntryView(e: Omit<ListEntry, 'gaps'> & { gaps?: number[] }, gaps = e.gaps, h?: ListHeader): Uint8Array {
  const logId = Math.floor(e.pid / PIDS_PER_ENTRY);
  const w = scratch.reset().uint(logId).uint(e.pid - logId * PIDS_PER_ENTRY).u8(e.roles);
  if (gaps) for (const g of gaps) w.uint(g);
  else for (const len of h!.lengths) w.uint(h!.n - len);
  w.uint(e.block_height).uint(e.microblock_sequence === ANCHORED ? 0 : e.microblock_sequence + 1).uint(e.tx_index);
  return w.raw(e.fact).view();
}

/** The entry in bytes [start, end); `bytes` may be lmdb's reused buffer: the fact is copied out. */
export function readEntry(bytes: Uint8Array, start = 0, end = bytes.length): ListEntry {
  const r = new ByteReader(bytes, start, end);
  const pid = r.uint() * PIDS_PER_ENTRY + r.uint();
  const roles = r.u8();
  const gaps: number[] = [];
  for (let i = 0; i < LISTS; i++) gaps.push(r.uint());
  const block_height = r.uint();
  const sequence = r.uint();
  const tx_index = r.uint();
  // A copy (Buffer#slice would be a view, and lmdb reuses the buffer for its next read).
  const fact = Uint8Array.prototype.slice.call(bytes, r.pos, end);
  return { pid, roles, gaps, block_height, microblock_sequence: sequence === 0 ? ANCHORED : sequence - 1, tx_index, fact };
}

export const inList = (list: number, roles: number): boolean => listsRow(LIST_FILTERS[list], roles);

export const chunkEntry = (chunk: Uint8Array, i: number): ListEntry => readEntry(chunk, ...entryRange(chunk, i));

/** Entries of `list` among entries 0..k (k's own included). */
const countThrough = (e: ListEntry, k: number, list: number): number => k - e.gaps[list] + (inList(list, e.roles) ? 1 : 0);

export function comparePosition(a: ChainPosition, b: ChainPosition): number {
  return a.block_height - b.block_height || a.microblock_sequence - b.microblock_sequence || a.tx_index - b.tx_index;
}

/** Reads of one principal's list. */
export class PrincipalList {
  constructor(
    private readonly db: Database<Buffer, Buffer>,
    readonly id: number,
    readonly header: ListHeader,
  ) {}

  /** The chunk read last (a page and a search read a few chunks, many entries of each), copied out
   *  of lmdb's reused buffer into one of this reader's own: a new copy per chunk read was ~5% of a
   *  with_transfers answer. Entries read from it copy their parts out (readEntry). */
  private chunk: { index: number; bytes: Uint8Array } | undefined;
  private room = new Uint8Array(0);

  static open(db: Database<Buffer, Buffer>, id: number | undefined): PrincipalList | undefined {
    if (id === undefined) return undefined;
    const h = db.getBinaryFast(chunkKey(id, HEADER_KEY));
    return h ? new PrincipalList(db, id, readHeader(h)) : undefined;
  }

  length(list: number): number {
    return this.header.lengths[list];
  }

  at(k: number): ListEntry | undefined {
    if (k < 0 || k >= this.header.n) return undefined;
    const index = Math.floor(k / CHUNK_ENTRIES);
    if (this.chunk?.index !== index) {
      const b = this.db.getBinaryFast(chunkKey(this.id, index));
      if (!b) return undefined;
      // `b.length` is the value's size, set over lmdb's longer reused buffer: copy through a view of
      // that size (set and copy would take the whole buffer).
      if (this.room.length < b.length) this.room = new Uint8Array(Math.max(b.length, 4096));
      this.room.set(new Uint8Array(b.buffer, b.byteOffset, b.length));
      this.chunk = { index, bytes: this.room };
    }
    const i = k - index * CHUNK_ENTRIES;
    return i < this.chunk.bytes[0] ? chunkEntry(this.chunk.bytes, i) : undefined;
  }

  /** The smallest k in [lo, hi] whose entries 0..k hold more than `count` entries of `list` (hi + 1 if none). */
  private firstPast(list: number, count: number, lo: number, hi: number): number {
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const e = this.at(mid);
      if (!e) return hi + 1;
      if (countThrough(e, mid, list) > count) hi = mid - 1;
      else lo = mid + 1;
    }
    return lo;
  }

  /** The ordinal of the entry at `listOrdinal` of `list`. */
  ordinalOf(list: number, listOrdinal: number): number {
    const { n } = this.header;
    if (listOrdinal === this.length(list) - 1) {
      // The newest entry of the list: usually the tail itself.
      const tail = this.at(n - 1);
      if (tail && inList(list, tail.roles)) return n - 1;
    }
    // Entry k holds list ordinal k - gap, and at most n - length entries are not in the list.
    return this.firstPast(list, listOrdinal, listOrdinal, Math.min(n - 1, listOrdinal + n - this.length(list)));
  }

  /** Entries of `list`, newest first, from list offset `offset`. */
  newestFirst(list: number, offset: number, limit: number): Array<{ ordinal: number; entry: ListEntry }> {
    const out: Array<{ ordinal: number; entry: ListEntry }> = [];
    let want = this.length(list) - 1 - offset;
    if (want < 0 || limit <= 0) return out;
    let k = this.ordinalOf(list, want);
    let skipped = 0;
    while (out.length < limit && want >= 0 && k >= 0) {
      const entry = this.at(k);
      if (!entry) break;
      if (inList(list, entry.roles)) {
        out.push({ ordinal: k, entry });
        skipped = 0;
        want--;
        k--;
      } else if (++skipped > SKIP_BEFORE_SEARCH) {
        // Walked past a run of entries not in the list: search for the next one instead.
        k = this.firstPast(list, want, want, k - 1);
        skipped = 0;
      } else k--;
    }
    return out;
  }

  /** The entry of placement `pid` at chain position `at` (interpolating on height, then halving). */
  find(at: ChainPosition, pid: number): { ordinal: number; entry: ListEntry } | undefined {
    let lo = 0;
    let hi = this.header.n - 1;
    let first = this.at(lo);
    let last = this.at(hi);
    if (!first || !last) return undefined;
    let halve = false;
    while (lo <= hi) {
      let mid: number;
      const span = last.block_height - first.block_height;
      if (!halve && span > 0 && at.block_height >= first.block_height && at.block_height <= last.block_height) {
        mid = lo + Math.floor(((at.block_height - first.block_height) / span) * (hi - lo));
      } else mid = (lo + hi) >>> 1;
      const width = hi - lo;
      const e = mid === lo ? first : mid === hi ? last : this.at(mid);
      if (!e) return undefined;
      const c = comparePosition(e, at);
      if (c === 0) return this.around(mid, e, at, pid);
      if (c < 0) {
        lo = mid + 1;
        if (lo > hi) break;
        first = this.at(lo)!;
      } else {
        hi = mid - 1;
        if (lo > hi) break;
        last = this.at(hi)!;
      }
      // Interpolation that did not halve the range gives way to halving for one step.
      halve = !halve && hi - lo > width / 2;
    }
    return undefined;
  }

  /** Entries at one position are few (a boot receipt and block 1's own tx): look beside `k`. */
  private around(k: number, e: ListEntry, at: ChainPosition, pid: number): { ordinal: number; entry: ListEntry } | undefined {
    if (e.pid === pid) return { ordinal: k, entry: e };
    for (const step of [-1, 1]) {
      for (let j = k + step; j >= 0 && j < this.header.n; j += step) {
        const o = this.at(j);
        if (!o || comparePosition(o, at) !== 0) break;
        if (o.pid === pid) return { ordinal: j, entry: o };
      }
    }
    return undefined;
  }
}

/** Entries not in a list stepped over before a binary search finds the next one. */
const SKIP_BEFORE_SEARCH = 32;
