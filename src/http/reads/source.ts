// Where an answer comes from: the serving store or the engine. Written once here, because every
// route family that has both makes the same choice.
//
// The serving store (src/serving) answers what point reads and first pages need, at the chain's
// tip, from documents written at ingest. ClickHouse answers everything, and is the only source
// when the store cannot answer:
// - there is no store: a process started with STACKS_API_SERVING_STORE=off, or one that reads
//   with STACKS_API_SERVING_READS=off (the store is still written; the engine answers all reads);
// - the store is behind ClickHouse: rebuilt, replaying the log after a crash, or new beside an
//   older store (its view is not ready until it has caught up);
// - the question is one the store keeps no answer for: a balance as of an earlier block
//   (until_block), unanchored microblock state, a list filtered or sorted otherwise than by the
//   newest first. Each family's routes say which of their parameters these are.
// So each engine twin stays reachable: none can be removed.
import type { ServingStore } from '../../serving/store.ts';
import type { ServingView } from '../../serving/view.ts';

/** The serving store and its committed view, as the API reads them. */
export interface Serving {
  store: ServingStore;
  view: ServingView;
}

/** Whether answers may come from the store now. */
export function servingReady(s: Serving | undefined): s is Serving {
  return !!s && s.view.ready;
}
