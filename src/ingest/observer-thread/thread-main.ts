// The observer thread: owns the event log writer and the uWS app the node POSTs to, and checks each
// body right here. Nothing the main thread does (processing batches, API queries) runs on this
// event loop, so the node's ack waits only for the check and the fdatasync.
import { parentPort, workerData } from 'node:worker_threads';
import { EventLogWriter } from '../event-log/writer.ts';
import { createObserverApp } from '../observer.ts';
import { listen, type Listening } from '../../server/server.ts';
import { decodeEvent } from '../../workers/decode-event.ts';
import type { FromObserver, ObserverThreadData, ToObserver } from './messages.ts';

const port = parentPort!;
const data = workerData as ObserverThreadData;
const post = (m: FromObserver) => port.postMessage(m);

async function run(): Promise<void> {
  const writer = await EventLogWriter.open(data.logDir);
  const durable = new BigInt64Array(data.durable);
  Atomics.store(durable, 0, BigInt(writer.durableId));
  writer.onDurable((id) => Atomics.store(durable, 0, BigInt(id)));
  const app = createObserverApp({
    writer,
    bodyLimit: data.bodyLimit,
    check: async (path, body) => {
      // The check before the ack: no serving documents (the pool renders those, off the ack's path).
      const out = decodeEvent({ path, body, serve: false });
      return out.ok ? { ok: true, decoded: out } : { ok: false, reason: out.reason };
    },
    // After the answer is written: the node is not kept waiting for the hand-off.
    onStored: (id, decoded) => post({ type: 'appended', id, durableId: writer.durableId, decoded: data.handOff ? decoded : undefined }),
  });
  let listening: Listening;
  try {
    listening = await listen(app, data.host, data.port);
  } catch (e) {
    await writer.close();
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
      void writer.close().finally(() => port.close());
    }
  });
  post({ type: 'ready', port: listening.port, durableId: writer.durableId });
}

run().catch((e: Error) => post({ type: 'failed', message: e.message }));
