// Main thread: tells every API thread what each committed serving batch changed and where processing
// is, so its own view and caches move with the main thread's.
//
// How a thread learns of a commit: a message per commit carrying the view's delta and new meta
// (view-delta.ts), rather than re-reading the store's meta key: the view also holds the
// non-canonical set and the pending mempool, which the meta key does not describe and which would
// cost a scan of the store per batch to re-read. Messages alone arrive whenever the thread's event
// loop gets to them, so a request could still be answered from the old view after the main thread
// has answered /extended with the new position; a shared counter closes that gap: it moves after
// the messages are posted, and an API thread compares it before each request and, when it moved,
// takes the waiting messages synchronously (receiveMessageOnPort) first (commit-follower.ts).
//
// The main view and the processor are observed without changing them: the view's `committed`,
// `beginBatch` and `endBatch` and the processor's `onBatchStored` hook are wrapped on these
// instances. The message goes out in a microtask: the processor moves its reorg generation right
// after the view's commit, in the same synchronous run, and the thread must get both at once.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { ServingView } from '../serving/view.ts';
import { viewDeltaOf, type ViewDelta } from './view-delta.ts';
import { readFollowedState, sameState, type FollowedState, type ProcessingSources } from './followed-state.ts';

export interface FeedMessage {
  commits: ViewDelta[];
  state: FollowedState;
}

/** What an API thread needs to follow the feed (sent in its workerData; the port transferred). */
export interface FeedEnd {
  port: MessagePort;
  /** Int32 slot 0: moves after each message is posted to every thread. */
  counter: SharedArrayBuffer;
  state: FollowedState;
}

/** Checked even without a commit or a stored batch, ms: a checkpoint that moved after an await of
 *  the processor's (the mempool cleanup) is sent within this. Reading the state is a few getters;
 *  a message goes out only when it changed. */
const POLL_MS = 100;

export class CommitFeed {
  private readonly ports: MessagePort[] = [];
  private readonly counter = new SharedArrayBuffer(4);
  private readonly count = new Int32Array(this.counter);
  private pending: ViewDelta[] = [];
  private scheduled = false;
  private last: FollowedState;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly sources: ProcessingSources) {
    this.last = readFollowedState(sources);
    if (sources.view) this.tapView(sources.view);
    const processor = sources.processor;
    if (processor) {
      const stored = processor.onBatchStored;
      processor.onBatchStored = (ms) => {
        stored?.(ms);
        this.schedule();
      };
    }
    this.timer = setInterval(() => this.schedule(), POLL_MS);
    this.timer.unref();
  }

  /** A new thread's end of the feed. Made before the thread loads its view: every commit after
   *  that is queued for it (one already in its view is applied again, which changes nothing). */
  open(): FeedEnd {
    const { port1, port2 } = new MessageChannel();
    this.ports.push(port1);
    return { port: port2, counter: this.counter, state: readFollowedState(this.sources) };
  }

  close(): void {
    clearInterval(this.timer);
    for (const p of this.ports) p.close();
    this.ports.length = 0;
  }

  private tapView(view: ServingView): void {
    const committed = view.committed.bind(view);
    view.committed = (changes, meta, logTo) => {
      committed(changes, meta, logTo);
      this.pending.push(viewDeltaOf(changes, meta, logTo));
      this.schedule();
    };
    const begin = view.beginBatch.bind(view);
    view.beginBatch = () => {
      begin();
      this.schedule();
    };
    const end = view.endBatch.bind(view);
    view.endBatch = () => {
      end();
      this.schedule();
    };
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const state = readFollowedState(this.sources);
    if (this.pending.length === 0 && sameState(state, this.last)) return;
    const message: FeedMessage = { commits: this.pending, state };
    this.pending = [];
    this.last = state;
    for (const p of this.ports) p.postMessage(message);
    Atomics.add(this.count, 0, 1);
  }
}
