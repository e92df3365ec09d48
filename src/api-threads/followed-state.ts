// What an API thread mirrors of the main thread's processing: the positions its answers and caches
// are keyed on, and the serving batches under way (the real-time hub waits for one to end before it
// renders a message again). Read on the main thread where it lives.
import type { Processor } from '../ingest/processor/processor.ts';
import type { IngestStatus } from '../ingest/status.ts';
import type { ServingView } from '../serving/view.ts';

export interface FollowedState {
  /** The processor's checkpoint. */
  committedId: number;
  /** Stored batches that orphaned a block (the `reorg` version; known-canonical.ts). */
  reorgGeneration: number;
  /** Newest entry readable everywhere (address/scope.ts keys the tip on it; the response cache's
   *  `commit` version and ctx.dataVersion). */
  processedId: number;
  receivedId: number;
  /** Where ClickHouse is as the serving view compares with it (ServingView.ready). */
  storedThrough: number;
  batchesBegun: number;
  batchesEnded: number;
}

export const NOTHING_PROCESSED: FollowedState = { committedId: 0, reorgGeneration: 0, processedId: 0, receivedId: 0, storedThrough: 0, batchesBegun: 0, batchesEnded: 0 };

export interface ProcessingSources {
  processor?: Processor;
  ingest?: IngestStatus;
  view?: ServingView;
}

/** Read where the feed sends it: in the microtask after a serving commit. A follower's processor
 *  (serving store only) moves its checkpoint to the committed batch a step later, in a continuation
 *  of that same run, and the main thread answers nothing in between: the positions sent are the
 *  ones it will answer with (a writer's checkpoint is never behind its serving store). */
export function readFollowedState({ processor, ingest, view }: ProcessingSources): FollowedState {
  if (!processor) return NOTHING_PROCESSED;
  const committedId = Math.max(processor.committedId, view?.appliedLogId ?? 0);
  return {
    committedId,
    reorgGeneration: processor.reorgGeneration,
    // As the processor counts it (processedId): what both ClickHouse and the serving store hold.
    processedId: view ? Math.min(committedId, view.appliedLogId) : committedId,
    receivedId: ingest?.receivedId() ?? committedId,
    storedThrough: processor.storedThroughForView,
    batchesBegun: view?.batchesBegun ?? 0,
    batchesEnded: view?.batchesEnded ?? 0,
  };
}

export function sameState(a: FollowedState, b: FollowedState): boolean {
  return (Object.keys(a) as Array<keyof FollowedState>).every((k) => a[k] === b[k]);
}
