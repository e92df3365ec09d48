// The canonical tx with which an account used a nonce, from the serving store's own-tx list (newest
// first; an account's nonces only grow along the chain, so the walk stops below the nonce).
import { LIST, principalFactOf, type ServingStore } from './store.ts';
import { storedListLength } from './list-overlay.ts';

/** Txs looked at before giving up (a nonce that old is not competed for in the mempool). */
const WALK = 200;

export function minedNonceOf(store: ServingStore, sender: string, nonce: number): string | undefined {
  const length = storedListLength(store, LIST.OWN, sender);
  if (length === 0) return undefined;
  for (const { value: pid } of store.lists.getRange({ start: [LIST.OWN, sender, length - 1], end: [LIST.OWN, sender, length - 1 - WALK], reverse: true })) {
    const fact = principalFactOf(store, sender, pid);
    if (fact?.nonce === undefined) continue;
    if (fact.nonce === nonce) return fact.tx_id;
    if (fact.nonce < nonce) return undefined;
  }
  return undefined;
}
