// What the main thread and an API worker thread tell each other outside of calls (rpc.ts).
import type { Config } from '../config/config.ts';
import type { ProxyConfig } from '../http/proxy/config.ts';
import type { RealtimeConfig } from '../realtime/config.ts';
import type { FeedEnd } from './commit-feed.ts';
import type { StoreFacts } from './engine-reads.ts';

export interface ApiThreadData {
  thread: number;
  threads: number;
  host: string;
  /** The port the main thread listens on (shared, SO_REUSEPORT). */
  port: number;
  config: Config;
  proxy: ProxyConfig;
  realtime: RealtimeConfig;
  store: StoreFacts;
  /** The serving store's directory, when the process keeps one. */
  servingDir?: string;
  /** Whether this process ingests (or follows a log): its positions come from the feed. */
  processes: boolean;
  /** Whether accepted broadcasts are recorded (a process with an event log). */
  recordsBroadcasts: boolean;
  feed: FeedEnd;
}

export type ToThread = { type: 'close' };

export type FromThread = { type: 'ready' } | { type: 'failed'; message: string } | { type: 'fatal'; message: string } | { type: 'closed' };

/** Calls an API thread makes of the main thread beyond engine reads and main-thread routes. */
export const PROCESS_METRICS = 'process-metrics';
export const BROADCAST_ACCEPTED = 'broadcast-accepted';
/** A call the main thread makes of an API thread: its own exposition text. */
export const THREAD_METRICS = 'thread-metrics';
