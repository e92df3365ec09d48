// What the observer thread and the main thread say to each other.
import type { AppendInput } from '../event-log/writer.ts';

export interface ObserverThreadData {
  logDir: string;
  host: string;
  port: number;
  bodyLimit: number;
  /** Whether the main thread takes the check's decodes (only without a serving store: the pool
   *  decodes again with documents). Without it they are not sent: copying an entry's rows to the
   *  main thread cost both threads for nothing. */
  handOff: boolean;
  /** One BigInt64 slot: the durable id, stored before any append resolves (so before the node's
   *  ack), read by the main thread without waiting for a message. */
  durable: SharedArrayBuffer;
}

/** Observer thread → main thread. */
export type FromObserver =
  | { type: 'ready'; port: number; durableId: number }
  | { type: 'failed'; message: string }
  /** An uncaught error on the observer thread: the process must end (a supervisor restarts it). */
  | { type: 'fatal'; message: string }
  /** Record `id` is durable (as is everything before it); `decoded` is the accepted body's decode. */
  | { type: 'appended'; id: number; durableId: number; decoded?: unknown; seq?: number }
  | { type: 'append-failed'; seq: number; message: string };

/** Main thread → observer thread. */
export type ToObserver = { type: 'append'; seq: number; input: AppendInput } | { type: 'close' };
