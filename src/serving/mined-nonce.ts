// The canonical tx with which an account used a nonce, from the serving store's own-tx list. An
// account's nonces only grow along the chain, so the list (chain order) is sorted by nonce: the
// newest entry answers the common case (a new nonce, above every mined one) and a binary search the
// rest. Entries without a nonce of this account (it only sponsored them) are stepped over, a few at
// a time: an account that mostly sponsors has no mined nonce worth a long walk.
import type { ServingStore } from './store.ts';
import { LIST, PrincipalList } from './principal-list.ts';
import { factNonce } from './principal-fact.ts';
import { placedDocOf, principalIdOf } from './reads.ts';
import { txIdOf } from './codec.ts';
import type { ServingChanges } from './changes.ts';
import { ROLE } from '../stacks/roles.ts';

/** Nonce-less entries stepped over per probe before the search gives up. */
const STEP_OVER = 16;

/** The nonce of the entry at own-list ordinal `o`, and its placement. */
function nonceAt(list: PrincipalList, o: number): { nonce?: number; pid: number } | undefined {
  const e = list.at(list.ordinalOf(LIST.OWN, o));
  return e && { nonce: factNonce(e.fact), pid: e.pid };
}

export function minedNonceOf(store: ServingStore, sender: string, nonce: number): string | undefined {
  const list = PrincipalList.open(store.lists, principalIdOf(store, sender));
  if (!list) return undefined;
  const last = list.length(LIST.OWN) - 1;
  // Search [lo, hi] for the entry carrying `nonce`.
  let lo = 0;
  let hi = last;
  while (lo <= hi) {
    const mid = hi === last && lo === 0 ? hi : (lo + hi) >>> 1;
    // The nearest entry at or below mid that has a nonce of this account.
    let o = mid;
    let found = nonceAt(list, o);
    while (found?.nonce === undefined && o > lo && mid - o < STEP_OVER) found = nonceAt(list, --o);
    if (found?.nonce === undefined) {
      if (mid - o >= STEP_OVER) return undefined;
      lo = mid + 1;
      continue;
    }
    if (found.nonce === nonce) {
      const p = placedDocOf(store, found.pid);
      return p && txIdOf(p.doc);
    }
    if (found.nonce < nonce) lo = mid + 1;
    else hi = o - 1;
  }
  return undefined;
}

/** The highest nonce among the account's own txs in the store: -1 when it has none; undefined when
 *  its newest entries are nonce-less (it only sponsored them) for more than STEP_OVER entries. */
export function lastMinedNonceOf(store: ServingStore, sender: string): number | undefined {
  const list = PrincipalList.open(store.lists, principalIdOf(store, sender));
  if (!list) return -1;
  const last = list.length(LIST.OWN) - 1;
  for (let o = last; o >= 0 && last - o < STEP_OVER; o--) {
    const nonce = nonceAt(list, o)?.nonce;
    if (nonce !== undefined) return nonce;
  }
  return last < STEP_OVER ? -1 : undefined;
}

/** At most this many accounts' last nonces are kept (then they are forgotten, all at once). */
const CEILINGS_KEPT = 200_000;

/**
 * Each account's highest mined nonce as the serving store holds it, read once. A new nonce (above
 * every mined one, nearly every announcement) then needs no search of the store: on the replayed
 * 100k-tx log the search was ~16 µs of the processor's thread per announced tx. Valid only while the
 * store does not change, so each serving commit passes its changes here (`committed`).
 */
export class StoreNonceCeilings {
  private readonly byAccount = new Map<string, number | undefined>();

  /** The account's highest nonce in the store; +Infinity when that cannot be told cheaply. */
  of(store: ServingStore, sender: string): number {
    let c = this.byAccount.get(sender);
    if (c === undefined && !this.byAccount.has(sender)) {
      if (this.byAccount.size >= CEILINGS_KEPT) this.byAccount.clear();
      c = lastMinedNonceOf(store, sender);
      this.byAccount.set(sender, c);
    }
    return c ?? Number.POSITIVE_INFINITY;
  }

  /** A serving write committed `changes`: the accounts' new own txs raise their ceilings (a ceiling
   *  above the truth only costs a search); a block leaving the chain lowers some, so all are dropped. */
  committed(changes: ServingChanges): void {
    for (const op of changes.ops) {
      if (op.op !== 'canonical') continue;
      if (!op.canonical) return this.clear();
      for (const e of op.contribution.entries) {
        // Only an origin's entry carries its nonce (principal-facts.ts).
        if (!(e.roles & ROLE.SENDER)) continue;
        const c = this.byAccount.get(e.principal);
        if (c === undefined) continue;
        const nonce = factNonce(e.fact);
        if (nonce !== undefined && nonce > c) this.byAccount.set(e.principal, nonce);
      }
    }
  }

  clear(): void {
    this.byAccount.clear();
  }
}

/**
 * The tx that used `nonce` of `sender` canonically: from `recent` (the tx id, of the canonical
 * blocks the processor remembers), else from the store. When a remembered block used the
 * nonce before it, the store is not searched: along the chain this nonce can only be used after
 * that block, so such a use would be remembered too. That is the common case of an account sending
 * again, and spares a search per announced tx. `ceilings` spares it for a nonce above the account's
 * highest in the store.
 */
export function minedNonce(
  recent: (sender: string, nonce: number) => string | undefined,
  store: ServingStore | undefined,
  sender: string,
  nonce: number,
  ceilings?: StoreNonceCeilings,
): string | undefined {
  const mined = recent(sender, nonce);
  if (mined !== undefined) return mined;
  if (nonce > 0 && recent(sender, nonce - 1) !== undefined) return undefined;
  if (!store || (ceilings && nonce > ceilings.of(store, sender))) return undefined;
  return minedNonceOf(store, sender, nonce);
}
