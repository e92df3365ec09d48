// A read-only API process that follows another process's event log (STACKS_API_FOLLOW_LOG: the
// writer's `<data dir>/events`, on the same host or a shared volume) and keeps its own serving
// store from it, so point reads are answered from local memory-mapped documents on every replica.
//
// - Embedded store (chdb, one data directory per process): the follower is a full replica — its
//   own ClickHouse tables and serving store, built from the same log with the same code.
// - ClickHouse server (CLICKHOUSE_URL): the writer fills the shared tables; the follower writes only
//   its serving store, and waits for the writer's checkpoint before reading back facts it needs
//   (blocks of a reorg that are no longer in memory).
//
// The log is polled; a record the writer has not finished writing is left for the next poll.
import { join } from 'node:path';
import type { Store } from '../storage/client.ts';
import { createDecodePool } from '../workers/pool.ts';
import { Processor } from './processor/processor.ts';
import { readCheckpoint } from './processor/checkpoint.ts';
import { openServingStore, servingDir, type ServingStore } from '../serving/store.ts';
import { ServingView } from '../serving/view.ts';
import { ServingWriter } from '../serving/writer.ts';
import type { IngestStatus } from './status.ts';
import { heldBlocksReport } from './processor/held-blocks.ts';

export interface Follower {
  processor: Processor;
  serving: { store: ServingStore; view: ServingView };
  status: IngestStatus;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function openFollower(store: Store, dataDir: string, followDir: string, opts: { servingOnly: boolean; pollMs?: number }): Promise<Follower> {
  const pool = createDecodePool();
  const servingStore = openServingStore(servingDir(dataDir));
  const view = new ServingView(servingStore).load();
  const writerCheckpoint = join(followDir, 'checkpoint.json');
  const writerStored = () => readCheckpoint(writerCheckpoint).committed;
  let stopped = false;
  const processor = new Processor({
    store,
    logDir: followDir,
    pool,
    checkpointFile: join(dataDir, 'follow-checkpoint.json'),
    serving: { writer: new ServingWriter(servingStore), view },
    servingOnly: opts.servingOnly
      ? {
          factsStored: async (logId) => {
            while (!stopped && writerStored() < logId) await sleep(100);
          },
        }
      : undefined,
  });
  view.followStoredThrough(() => processor.storedThroughForView);
  await processor.init();
  const timer = setInterval(() => void processor.kick(), opts.pollMs ?? 200);
  void processor.kick();
  return {
    processor,
    serving: { store: servingStore, view },
    status: {
      // What is known to be in the log: at least what the writer has processed.
      receivedId: () => Math.max(processor.committedId, writerStored()),
      processedId: () => processor.processedId,
      error: () => processor.error,
      heldBlocks: () => heldBlocksReport(processor.state),
      quarantined: () => [],
    },
    async close() {
      stopped = true;
      clearInterval(timer);
      await processor.stop();
      await pool.close();
      await servingStore.close();
    },
  };
}
