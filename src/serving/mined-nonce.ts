// The canonical tx with which an account used a nonce, from the serving store's own-tx list. An
// account's nonces only grow along the chain, so the list (chain order) is sorted by nonce: the
// newest entry answers the common case (a new nonce, above every mined one) and a binary search the
// rest. Entries without a nonce of this account (it only sponsored them) are stepped over, a few at
// a time: an account that mostly sponsors has no mined nonce worth a long walk.
import type { ServingStore } from './store.ts';
import { LIST, PrincipalList } from './principal-list.ts';
import { readFact } from './principal-fact.ts';
import { placedDocOf, principalIdOf } from './reads.ts';
import { txIdOf } from './codec.ts';

/** Nonce-less entries stepped over per probe before the search gives up. */
const STEP_OVER = 16;

/** The nonce of the entry at own-list ordinal `o`, and its placement. */
function nonceAt(list: PrincipalList, o: number): { nonce?: number; pid: number } | undefined {
  const e = list.at(list.ordinalOf(LIST.OWN, o));
  return e && { nonce: readFact(e.fact, e.roles).nonce, pid: e.pid };
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

/**
 * The tx that used `nonce` of `sender` canonically: from `recent` (the tx id, of the canonical
 * blocks the processor remembers), else from the store. When a remembered block used the
 * nonce before it, the store is not searched: along the chain this nonce can only be used after
 * that block, so such a use would be remembered too. That is the common case of an account sending
 * again, and spares a search per announced tx.
 */
export function minedNonce(recent: (sender: string, nonce: number) => string | undefined, store: ServingStore | undefined, sender: string, nonce: number): string | undefined {
  const mined = recent(sender, nonce);
  if (mined !== undefined) return mined;
  if (nonce > 0 && recent(sender, nonce - 1) !== undefined) return undefined;
  return store ? minedNonceOf(store, sender, nonce) : undefined;
}
