// The canonical tx with which an account used a nonce, from the serving store's own-tx list. An
// account's nonces only grow along the chain, so the list (chain order) is sorted by nonce: the
// newest entry answers the common case (a new nonce, above every mined one) and a binary search the
// rest. Entries without a nonce of this account (it only sponsored them) are stepped over, a few at
// a time: an account that mostly sponsors has no mined nonce worth a long walk.
import { LIST, principalFactOf, type ServingStore } from './store.ts';
import { storedListLength } from './list-overlay.ts';

/** Nonce-less entries stepped over per probe before the search gives up. */
const STEP_OVER = 16;

const nonceAt = (store: ServingStore, sender: string, ordinal: number) => {
  const pid = store.lists.get([LIST.OWN, sender, ordinal]);
  return pid === undefined ? undefined : principalFactOf(store, sender, pid);
};

export function minedNonceOf(store: ServingStore, sender: string, nonce: number): string | undefined {
  const last = storedListLength(store, LIST.OWN, sender) - 1;
  // Search [lo, hi] for the entry carrying `nonce`.
  let lo = 0;
  let hi = last;
  while (lo <= hi) {
    const mid = hi === last && lo === 0 ? hi : (lo + hi) >>> 1;
    // The nearest entry at or below mid that has a nonce of this account.
    let o = mid;
    let fact = nonceAt(store, sender, o);
    while (fact?.nonce === undefined && o > lo && mid - o < STEP_OVER) fact = nonceAt(store, sender, --o);
    if (fact?.nonce === undefined) {
      if (mid - o >= STEP_OVER) return undefined;
      lo = mid + 1;
      continue;
    }
    if (fact.nonce === nonce) return fact.tx_id;
    if (fact.nonce < nonce) lo = mid + 1;
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
