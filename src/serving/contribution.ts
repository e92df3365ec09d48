// What a canonical block adds to the serving store's lists and totals: its canonical placements in
// list order, each principal's part in them, its balance changes and NFT counts.
import { pidOf, type BlockContribution, type ListedEntry, type ListedTx, type NftDelta } from './changes.ts';
import type { ServedRows, BalanceDelta } from './input.ts';

/**
 * The lists' order within a block, oldest first: by (microblock_sequence, tx_index); on a tie (block
 * 1's own tx and a relabelled boot receipt) the boot receipt, then tx_id descending — read newest
 * first, that is the reference's order (own tx first, then by tx_id).
 */
export function listOrder(a: ListedTx, b: ListedTx): number {
  return a.microblock_sequence - b.microblock_sequence || a.tx_index - b.tx_index || Number(b.boot) - Number(a.boot) || (a.tx_id < b.tx_id ? 1 : a.tx_id > b.tx_id ? -1 : 0);
}

/**
 * `accepted`: whether the block accepted a microblock (its txs of other microblocks are not
 * canonical with it); decided by the caller from the chain state at the time.
 */
export function blockContribution(served: ServedRows, logId: number, deltas: BalanceDelta[], accepted: (microblockHash: string) => boolean): BlockContribution {
  const txs: ListedTx[] = [];
  const byLocal = new Map<number, ListedTx>();
  served.txs.forEach((t, i) => {
    const d = t.doc;
    if (d.microblock_hash && !accepted(d.microblock_hash)) return;
    const listed = { pid: pidOf(logId, i), tx_id: d.tx_id, block_height: d.block_height, microblock_hash: d.microblock_hash, microblock_sequence: d.microblock_sequence, tx_index: d.tx_index, boot: t.boot };
    txs.push(listed);
    byLocal.set(i, listed);
  });
  const entries: ListedEntry[] = [];
  const nft = new Map<string, NftDelta>();
  for (const p of served.principalTxs) {
    const t = byLocal.get(p.tx);
    if (!t) continue;
    // A literal, not a spread of t: spreading is V8's slow generic copy, on every entry of a batch.
    entries.push({ pid: t.pid, tx_id: t.tx_id, block_height: t.block_height, microblock_hash: t.microblock_hash, microblock_sequence: t.microblock_sequence, tx_index: t.tx_index, boot: t.boot, principal: p.principal, roles: p.roles, fact: p.packed });
    for (const [asset, sent, received] of p.nft ?? []) {
      const key = `${p.principal}|${asset}`;
      let d = nft.get(key);
      if (!d) nft.set(key, (d = [p.principal, asset, 0, 0]));
      d[2] += sent;
      d[3] += received;
    }
  }
  txs.sort(listOrder);
  entries.sort(listOrder);
  return { txs, entries, deltas, nft: [...nft.values()] };
}
