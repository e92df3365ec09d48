// Principal -> a u32 id, so the lists, totals and NFT counts are keyed by 4 bytes instead of the
// principal's 40-170 characters, and the real-time journal names principals by id (id -> principal
// is kept too). Ids are assigned in log order (the order a batch's changes name
// principals), so a store rebuilt from the same log gives the same ids. The writer remembers recent
// ids (a principal that sends again is not looked up) and the count, and takes a batch's new ids
// into its memory only once the batch committed.
import type { ServingStore } from './store.ts';
import { principalIdOf } from './reads.ts';
import { u32Key } from './bytes.ts';

/** lmdb's put option (missing from its type declarations). */
const APPEND = { append: true } as unknown as number;

export class PrincipalIds {
  private readonly known = new Map<string, number>();
  private count: number;

  constructor(
    private readonly store: ServingStore,
    private readonly capacity = 262_144,
  ) {
    this.count = (store.meta.get('principalCount') as number | undefined) ?? 0;
  }

  /** A batch's view: ids assigned in it are written by flush and remembered by commit. */
  batch(): PrincipalIdBatch {
    return new PrincipalIdBatch(this.store, this.known, this.count, (added, count) => this.commit(added, count));
  }

  private commit(added: Map<string, number>, count: number): void {
    this.count = count;
    for (const [p, id] of added) this.remember(p, id);
  }

  remember(principal: string, id: number): void {
    this.known.delete(principal);
    this.known.set(principal, id);
    if (this.known.size > this.capacity) this.known.delete(this.known.keys().next().value!);
  }
}

export class PrincipalIdBatch {
  private readonly added = new Map<string, number>();
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly store: ServingStore,
    private readonly known: Map<string, number>,
    private count: number,
    private readonly onCommit: (added: Map<string, number>, count: number) => void,
  ) {}

  /** The principal's id, a new one if it has none. */
  idOf(principal: string): number {
    let id = this.known.get(principal) ?? this.seen.get(principal) ?? this.added.get(principal);
    if (id !== undefined) return id;
    id = principalIdOf(this.store, principal);
    if (id === undefined) this.added.set(principal, (id = this.count++));
    else this.seen.set(principal, id);
    return id;
  }

  flush(): void {
    for (const [p, id] of this.added) {
      void this.store.principals.put(p, u32Key(id));
      // Ids only grow: their names are appended.
      void this.store.principalNames.put(id, p, APPEND);
    }
    if (this.added.size > 0) void this.store.meta.put('principalCount', this.count);
  }

  /** After the batch committed. */
  committed(): void {
    for (const [p, id] of this.seen) this.added.set(p, id);
    this.onCommit(this.added, this.count);
  }
}
