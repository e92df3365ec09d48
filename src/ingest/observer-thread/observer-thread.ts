// Main-thread side of the observer thread: starts it, mirrors its durable id, relays appends (the
// proxy records accepted broadcasts) and hands decoded bodies to whoever processes them.
import { Worker } from 'node:worker_threads';
import type { AppendInput } from '../event-log/writer.ts';
import type { EventLog } from '../pipeline.ts';
import type { FromObserver, ObserverThreadData, ToObserver } from './messages.ts';
import { threadEntry } from '../../runtime/thread-entry.ts';

const ENTRY = threadEntry(new URL('./worker.ts', import.meta.url));

export interface ObserverThread extends EventLog {
  readonly port: number;
  /** Called with each accepted body's decode (and the bytes of its buffers), before durable
   *  listeners hear of its id. */
  onDecoded(handler: (id: number, decoded: unknown, bytes: number) => void): void;
  /** Called once if the thread fails after it started (an uncaught error, or it exited): the
   *  observer no longer answers, so the process must end. */
  onFailure(handler: (message: string) => void): void;
}

export function startObserverThread(opts: Omit<ObserverThreadData, 'durable' | 'processorRead'>): Promise<ObserverThread> {
  const data: ObserverThreadData = { ...opts, durable: new SharedArrayBuffer(8), processorRead: new SharedArrayBuffer(8) };
  const durableSlot = new BigInt64Array(data.durable);
  const readSlot = new BigInt64Array(data.processorRead);
  const worker = new Worker(ENTRY.filename, { argv: ENTRY.argv, workerData: data });
  // What the durable listeners last heard; the current id is read from the shared slot.
  let durable = 0;
  let seq = 0;
  const durableListeners = new Set<(id: number) => void>();
  const pending = new Map<number, { resolve: (id: number) => void; reject: (e: Error) => void }>();
  let decodedHandler: (id: number, decoded: unknown, bytes: number) => void = () => {};
  // close() resolves when the thread has exited by itself (terminating it hangs in uWS).
  let closed: (() => void) | undefined;
  let started = false;
  let failureHandler: (message: string) => void = (message) => console.error(`observer thread failed: ${message}`);
  const failed = (message: string) => {
    if (!started || closed) return;
    started = false;
    failureHandler(message);
  };

  return new Promise((resolve, reject) => {
    worker.on('error', (e) => {
      reject(e);
      failed(`uncaught error: ${e.message}`);
    });
    worker.on('exit', (code) => {
      for (const p of pending.values()) p.reject(new Error('the observer thread exited'));
      pending.clear();
      closed?.();
      if (!closed) {
        reject(new Error(`the observer thread exited (${code})`));
        failed(`the observer thread exited (${code})`);
      }
    });
    worker.on('message', (m: FromObserver) => {
      switch (m.type) {
        case 'ready':
          durable = m.durableId;
          started = true;
          resolve(handle(m.port));
          break;
        case 'fatal':
          failed(m.message);
          break;
        case 'failed':
          reject(new Error(m.message));
          void worker.terminate();
          break;
        case 'appended':
          if (m.decoded !== undefined) decodedHandler(m.id, m.decoded, m.decodedBytes ?? 0);
          if (m.seq !== undefined) {
            pending.get(m.seq)?.resolve(m.id);
            pending.delete(m.seq);
          }
          if (m.durableId > durable) {
            durable = m.durableId;
            for (const l of durableListeners) l(m.durableId);
          }
          break;
        case 'append-failed':
          pending.get(m.seq)?.reject(new Error(m.message));
          pending.delete(m.seq);
          break;
      }
    });
  });

  function handle(port: number): ObserverThread {
    const send = (m: ToObserver) => worker.postMessage(m);
    return {
      port,
      dir: data.logDir,
      get durableId() {
        return Number(Atomics.load(durableSlot, 0));
      },
      onDurable(listener) {
        durableListeners.add(listener);
        return () => durableListeners.delete(listener);
      },
      noteRead(id) {
        Atomics.store(readSlot, 0, BigInt(id));
      },
      onDecoded(handler) {
        decodedHandler = handler;
      },
      onFailure(handler) {
        failureHandler = handler;
      },
      append(input: AppendInput) {
        return new Promise<number>((resolveAppend, rejectAppend) => {
          const id = ++seq;
          pending.set(id, { resolve: resolveAppend, reject: rejectAppend });
          send({ type: 'append', seq: id, input });
        });
      },
      close() {
        return new Promise<void>((done) => {
          closed = done;
          send({ type: 'close' });
        });
      },
    };
  }
}
