// What the observer thread and the main thread say to each other.
import type { AppendInput } from '../event-log/writer.ts';

export interface ObserverThreadData {
  logDir: string;
  host: string;
  port: number;
  bodyLimit: number;
  /** Whether the serving store is on: the check's decodes handed to the main thread then carry the
   *  serving documents too, rendered after the ack (decodeCheckedThenServed). */
  serving: boolean;
  /** One BigInt64 slot: the durable id, stored before any append resolves (so before the node's
   *  ack), read by the main thread without waiting for a message. */
  durable: SharedArrayBuffer;
  /** One BigInt64 slot: the highest id the processor has read from the log (noteRead). */
  processorRead: SharedArrayBuffer;
}

/** Observer thread → main thread. */
export type FromObserver =
  | { type: 'ready'; port: number; durableId: number }
  | { type: 'failed'; message: string }
  /** An uncaught error on the observer thread: the process must end (a supervisor restarts it). */
  | { type: 'fatal'; message: string }
  /** Record `id` is durable (as is everything before it); `decoded` is the accepted body's decode
   *  (a DecodeOutcome, its buffers moved: `decodedBytes` of them). */
  | { type: 'appended'; id: number; durableId: number; decoded?: unknown; decodedBytes?: number; seq?: number }
  | { type: 'append-failed'; seq: number; message: string };

/** Main thread → observer thread. */
export type ToObserver = { type: 'append'; seq: number; input: AppendInput } | { type: 'close' };
