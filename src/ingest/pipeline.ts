// The write side assembled: event log, decode pool, processor, and the compactor that compresses
// the log once processed. Used by the server (the log is written by the observer thread) and by the
// import command (written right here).
import { join } from 'node:path';
import type { Store } from '../storage/client.ts';
import { EventLogWriter, type AppendInput } from './event-log/writer.ts';
import { EventLogCompactor } from './event-log/compactor.ts';
import { createDecodePool, type DecodePool } from '../workers/pool.ts';
import { Processor } from './processor/processor.ts';
import type { IngestStatus } from './status.ts';
import { openServingStore, servingDir, type ServingStore } from '../serving/store.ts';
import { ServingView } from '../serving/view.ts';
import { ServingWriter } from '../serving/writer.ts';
import { heldBlocksReport } from './processor/held-blocks.ts';
import { watchQuarantine } from './processor/quarantine-watch.ts';

/** What the processor and the API need of the event log, whichever thread writes it. */
export interface EventLog {
  readonly dir: string;
  /** Id of the newest record that is on disk and synced. */
  readonly durableId: number;
  onDurable(listener: (id: number) => void): () => void;
  append(input: AppendInput): Promise<number>;
  close(): Promise<void>;
  /** The processor has read the log through `id` (the observer thread decides from it whether
   *  decoding an entry for the processor still pays). */
  noteRead?(id: number): void;
}

export interface Pipeline<Log extends EventLog = EventLog> {
  writer: Log;
  /** Decodes log entries for the processor. */
  pool: DecodePool;
  processor: Processor;
  /** Compresses segments of the log once every record in them is processed. */
  compactor: EventLogCompactor;
  /** The serving store and the committed view of it that answers read (unless switched off). */
  serving?: { store: ServingStore; view: ServingView };
  status: IngestStatus;
  close(): Promise<void>;
}

export const eventLogDir = (dataDir: string): string => join(dataDir, 'events');

/** `live`: entries arrive while we run, and each durable append kicks the processor. */
export async function openPipeline<Log extends EventLog = EventLogWriter>(
  store: Store,
  dataDir: string,
  opts: { live: boolean; threads?: number; log?: Log; mempoolCleanupMs?: number; liveBatchMs?: number; servingStore?: boolean },
): Promise<Pipeline<Log>> {
  const writer = opts.log ?? ((await EventLogWriter.open(eventLogDir(dataDir))) as unknown as Log);
  const serve = opts.servingStore !== false;
  const pool = createDecodePool(opts.threads, { serve });
  const servingStore = serve ? openServingStore(servingDir(dataDir)) : undefined;
  const view = servingStore && new ServingView(servingStore).load();
  const processor = new Processor({
    store,
    logDir: writer.dir,
    pool,
    durableId: () => writer.durableId,
    maxBatchMs: opts.live ? opts.liveBatchMs : undefined,
    onRead: writer.noteRead?.bind(writer),
    mempoolCleanupMs: opts.mempoolCleanupMs,
    serving: servingStore && view ? { writer: new ServingWriter(servingStore), view } : undefined,
  });
  view?.followStoredThrough(() => processor.storedThroughForView);
  await processor.init();
  const unsubscribe = opts.live ? writer.onDurable(() => void processor.kick()) : () => {};
  if (opts.live) void processor.kick();
  const quarantine = watchQuarantine(processor, writer.dir, opts.live);
  const compactor = EventLogCompactor.start(writer.dir, { processedId: () => processor.committedId });
  return {
    writer,
    pool,
    processor,
    compactor,
    serving: servingStore && view ? { store: servingStore, view } : undefined,
    status: {
      receivedId: () => writer.durableId,
      processedId: () => processor.processedId,
      error: () => processor.error,
      heldBlocks: () => heldBlocksReport(processor.state),
      quarantined: () => quarantine.list(),
    },
    async close() {
      unsubscribe();
      quarantine.stop();
      // The log is flushed and closed while processing stops (a batch being stored may take a while).
      await Promise.all([processor.stop(), writer.close(), compactor.stop()]);
      await pool.close();
      await servingStore?.close();
    },
  };
}
