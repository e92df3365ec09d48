// The observer thread: owns the event log writer and the uWS app the node POSTs to, and checks each
// body right here. Nothing the main thread does (processing batches, API queries) runs on this
// event loop, so the node's ack waits only for the check and the fdatasync (and, while processing
// is behind, for the entry's documents where they take longer than the sync).
import { parentPort, workerData } from 'node:worker_threads';
import { EventLogWriter } from '../event-log/writer.ts';
import { startSyncThread } from '../event-log/sync-thread.ts';
import { createObserverApp } from '../observer.ts';
import { listen, type Listening } from '../../server/server.ts';
import { decodeCheckedThenServed, decodeEventMovable } from '../../workers/decode-event.ts';
import type { DecodeOutcome } from '../../workers/decoded.ts';
import type { FromObserver, ObserverThreadData, ToObserver } from './messages.ts';

const port = parentPort!;
const data = workerData as ObserverThreadData;
const post = (m: FromObserver, moved: ArrayBuffer[] = []) => port.postMessage(m, moved);
/**
 * The serving documents are rendered here (and the entry's decode handed over) only while the
 * processor is at least this many entries behind the log: then the decode arrives before the
 * processor reads the entry, and it saves decoding it again in the pool, which is what holds a
 * backlog back. Closer behind, rendering here would only lengthen the node's wait for each ack
 * (the render after one delays the next; measured: bench/RESULTS.md, twenty-first session).
 */
const RENDER_WHEN_BEHIND = 64;
/** An accepted body's decode as the processor takes it, with the buffers to move. */
type Handed = () => { outcome: DecodeOutcome; moved: ArrayBuffer[] };

async function run(): Promise<void> {
  const syncThread = startSyncThread();
  const writer = await EventLogWriter.open(data.logDir, undefined, (fd) => syncThread.sync(fd));
  const durable = new BigInt64Array(data.durable);
  const processorRead = new BigInt64Array(data.processorRead);
  const processorBehind = () => writer.durableId - Number(Atomics.load(processorRead, 0)) >= RENDER_WHEN_BEHIND;
  Atomics.store(durable, 0, BigInt(writer.durableId));
  writer.onDurable((id) => Atomics.store(durable, 0, BigInt(id)));
  const app = createObserverApp({
    writer,
    bodyLimit: data.bodyLimit,
    check: async (path, body) => {
      // The decode before the ack is the processor's too: with the serving store, while the
      // processor is behind, its documents are rendered as the record syncs (meanwhile).
      if (data.serving && processorBehind()) {
        const d = decodeCheckedThenServed({ path, body });
        return d.outcome.ok ? { ok: true, decoded: d.finish satisfies Handed, meanwhile: d.finish } : { ok: false, reason: d.outcome.reason };
      }
      const out = decodeEventMovable({ path, body, serve: false });
      if (!out.outcome.ok) return { ok: false, reason: out.outcome.reason };
      // Without documents, a serving store's processor decodes the entry again in the pool.
      return { ok: true, decoded: data.serving ? undefined : ((() => out) satisfies Handed) };
    },
    // After the answer is written: the node is not kept waiting for the documents or the hand-off.
    onStored: (id, decoded) => {
      let handed: ReturnType<Handed> | undefined;
      try {
        handed = (decoded as Handed | undefined)?.();
      } catch (e) {
        // The pool decodes the entry instead; the record is stored and acknowledged either way.
        console.error(`observer: handing over entry ${id}'s decode failed:`, e);
      }
      const decodedBytes = handed?.moved.reduce((n, b) => n + b.byteLength, 0);
      post({ type: 'appended', id, durableId: writer.durableId, decoded: handed?.outcome, decodedBytes }, handed?.moved);
    },
  });
  let listening: Listening;
  try {
    listening = await listen(app, data.host, data.port);
  } catch (e) {
    await writer.close();
    await syncThread.close();
    post({ type: 'failed', message: (e as Error).message });
    return;
  }
  // An error nothing caught: tell the main thread (which ends the process) and stop answering,
  // rather than die with open uWS handles, which leaves the process half alive.
  process.on('uncaughtException', (err) => {
    listening.close();
    post({ type: 'fatal', message: `uncaught error on the observer thread: ${err.message}` });
  });
  port.on('message', (m: ToObserver) => {
    if (m.type === 'append') {
      // A Buffer crosses threads as a plain Uint8Array.
      const body = Buffer.from(m.input.body.buffer, m.input.body.byteOffset, m.input.body.byteLength);
      writer.append({ ...m.input, body }).then(
        (id) => post({ type: 'appended', id, durableId: writer.durableId, seq: m.seq }),
        (err: Error) => post({ type: 'append-failed', seq: m.seq, message: err.message }),
      );
    } else if (m.type === 'close') {
      listening.close();
      // Closing the port lets the thread exit, which is what the main side waits for.
      void writer
        .close()
        .finally(() => syncThread.close())
        .finally(() => port.close());
    }
  });
  post({ type: 'ready', port: listening.port, durableId: writer.durableId });
}

run().catch((e: Error) => post({ type: 'failed', message: e.message }));
