// The write side assembled: event log writer, decode pool, processor. Used by the server and by
// the import command.
import { join } from 'node:path';
import type { Store } from '../storage/client.ts';
import { EventLogWriter } from './event-log/writer.ts';
import { createDecodePool, type DecodePool } from '../workers/pool.ts';
import { Processor } from './processor/processor.ts';
import type { IngestStatus } from '../http/context.ts';

export interface Pipeline {
  writer: EventLogWriter;
  /** Checks observer requests before they are acknowledged; its own thread, so a processing
   *  backlog never delays the node's ack. */
  checkPool: DecodePool;
  /** Decodes log entries for the processor. */
  pool: DecodePool;
  processor: Processor;
  status: IngestStatus;
  close(): Promise<void>;
}

export const eventLogDir = (dataDir: string): string => join(dataDir, 'events');

/** `live`: the observer is running (it gets its own check pool, and durable appends kick the processor). */
export async function openPipeline(store: Store, dataDir: string, opts: { live: boolean; threads?: number }): Promise<Pipeline> {
  const writer = await EventLogWriter.open(eventLogDir(dataDir));
  const pool = createDecodePool(opts.threads);
  const checkPool = opts.live ? createDecodePool(1) : pool;
  const processor = new Processor({ store, logDir: writer.dir, pool, durableId: () => writer.durableId });
  await processor.init();
  const unsubscribe = opts.live ? writer.onDurable(() => void processor.kick()) : () => {};
  if (opts.live) void processor.kick();
  return {
    writer,
    checkPool,
    pool,
    processor,
    status: {
      receivedId: () => writer.durableId,
      processedId: () => processor.committedId,
      error: () => processor.error,
    },
    async close() {
      unsubscribe();
      await processor.stop();
      await writer.close();
      await pool.close();
      if (checkPool !== pool) await checkPool.close();
    },
  };
}
