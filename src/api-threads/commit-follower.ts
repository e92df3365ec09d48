// API thread: follows the main thread's commit feed (commit-feed.ts says why it is built so). Messages
// are applied as they arrive, and `sync()`, called before each request is handled, first takes any
// that the shared counter says were posted and not yet seen, so no answer comes from a view older
// than one the main thread has already answered from.
import { receiveMessageOnPort } from 'node:worker_threads';
import type { ServingView } from '../serving/view.ts';
import type { FeedEnd, FeedMessage } from './commit-feed.ts';
import { applyViewDelta } from './view-delta.ts';
import type { FollowedState } from './followed-state.ts';

export class CommitFollower {
  state: FollowedState;
  private readonly count: Int32Array;
  private seen: number;

  constructor(
    private readonly end: FeedEnd,
    private readonly view?: ServingView,
  ) {
    this.state = end.state;
    this.count = new Int32Array(end.counter);
    this.seen = Atomics.load(this.count, 0);
    view?.followStoredThrough(() => this.state.storedThrough);
    this.catchUpBatches();
    end.port.on('message', (m: FeedMessage) => this.apply(m));
  }

  /** Before a request: applies what was posted and not yet received. */
  sync(): void {
    const now = Atomics.load(this.count, 0);
    if (now === this.seen) return;
    this.seen = now;
    for (let m = receiveMessageOnPort(this.end.port); m; m = receiveMessageOnPort(this.end.port)) this.apply(m.message as FeedMessage);
  }

  close(): void {
    this.end.port.close();
  }

  private apply(m: FeedMessage): void {
    if (this.view) for (const d of m.commits) applyViewDelta(this.view, d);
    this.state = m.state;
    this.catchUpBatches();
  }

  /** The view's batch counters as the main view's (waking what waits for a batch to end). */
  private catchUpBatches(): void {
    const view = this.view;
    if (!view) return;
    while (view.batchesBegun < this.state.batchesBegun) view.beginBatch();
    while (view.batchesEnded < this.state.batchesEnded) view.endBatch();
  }
}
