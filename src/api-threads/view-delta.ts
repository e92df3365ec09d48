// What a committed batch changes in the serving view (src/serving/view.ts), small enough to send to
// every API thread: blocks that joined or left the canonical chain (and stored non-canonical ones),
// the mempool txs whose pending entry changed, the view's counters and the applied entry. Each
// thread applies it to its own view through ServingView.committed, which reads the pending entries
// back from the store (the same LMDB environment, so the same committed data).
//
// Both ends are here: they mirror what ServingView.committed reads of a batch's changes (ops
// `canonical`, `docs` with canonical false, `mempool`), so a change there is one file to follow;
// so is how an API thread opens its read-only handle and view (the serving store's read side as
// the API threads use it: open, load, apply a delta, close).
import type { ServingChanges } from '../serving/changes.ts';
import { openServingStore, type ServingStore } from '../serving/store.ts';
import { ServingView } from '../serving/view.ts';
import type { ViewMeta } from '../serving/writer.ts';

export interface ViewDelta {
  logTo: number;
  meta: ViewMeta;
  /** [index_block_hash, canonical], in the batch's order. */
  canonical: Array<[string, boolean]>;
  /** Tx ids whose mempool state changed. */
  mempool: string[];
}

/** Main thread: the delta of a batch the main view has just committed. */
export function viewDeltaOf(changes: ServingChanges, meta: ViewMeta, logTo: number): ViewDelta {
  const canonical: Array<[string, boolean]> = [];
  const mempool: string[] = [];
  for (const op of changes.ops) {
    if (op.op === 'canonical') canonical.push([op.index_block_hash, op.canonical]);
    else if (op.op === 'docs' && op.canonical === false && op.served.block) canonical.push([op.served.block.index_block_hash, false]);
    else if (op.op === 'mempool') mempool.push(op.tx_id);
  }
  return { logTo, meta, canonical, mempool };
}

/** API thread: applies a delta to this thread's view (its commit listeners run, as on the main thread). */
export function applyViewDelta(view: ServingView, d: ViewDelta): void {
  const ops = [
    ...d.canonical.map(([index_block_hash, canonical]) => ({ op: 'canonical' as const, index_block_hash, canonical })),
    ...d.mempool.map((tx_id) => ({ op: 'mempool' as const, tx_id })),
  ];
  // Only the members ServingView.committed reads (see above).
  view.committed({ ops } as unknown as ServingChanges, d.meta, d.logTo);
}

/** API thread: its own read-only handle on the serving store (LMDB shares the environment, and so
 *  the map, with the main thread's) and a view loaded from it. */
export function openThreadServing(dir: string): { store: ServingStore; view: ServingView } {
  const store = openServingStore(dir, { readOnly: true });
  return { store, view: new ServingView(store).load() };
}
