// Ingest series: where the event log and processing are, how far behind, how fast txs are stored,
// the decode pool's queue and the time batches take to store. Read from the processor at each
// scrape (nothing on the ingest path but one histogram observation per stored batch).
import { counter, gauge, histogram } from '../metrics/registry.ts';
import type { IngestStatus } from './status.ts';
import type { Processor } from './processor/processor.ts';
import type { DecodePool } from '../workers/pool.ts';

/** Txs per second are measured over this window. */
const RATE_WINDOW_MS = 10_000;
const SAMPLE_MS = 1000;

export interface IngestSources {
  status: IngestStatus;
  processor: Processor;
  /** The decode pool (absent in a follower, which decodes in its own). */
  pool?: DecodePool;
}

/** Registers the ingest series for this process's processor; returns a stop function (the sampler). */
export function watchIngest({ status, processor, pool }: IngestSources): () => void {
  gauge({ name: 'stacks_ingest_received_log_id', help: 'Newest event-log entry on disk (the log position).', collect() { this.set(status.receivedId()); } });
  gauge({ name: 'stacks_ingest_processed_log_id', help: 'Newest event-log entry whose rows are stored (the processed position).', collect() { this.set(status.processedId()); } });
  gauge({ name: 'stacks_ingest_lag_entries', help: 'Event-log entries received but not yet processed.', collect() { this.set(status.receivedId() - status.processedId()); } });
  gauge({ name: 'stacks_ingest_processing_stopped', help: '1 while processing is stopped at an entry the store refused (see /extended), else 0.', collect() { this.set(status.error() ? 1 : 0); } });
  gauge({ name: 'stacks_ingest_chain_state_blocks', help: 'Blocks the processor holds in memory (recent heights; older ones are read back when needed).', collect() { this.set(processor.state?.blocks.size ?? 0); } });
  gauge({ name: 'stacks_ingest_held_blocks', help: 'Blocks held for want of a parent.', collect() { this.set(status.heldBlocks().count); } });
  const totals: Array<[string, string, () => number]> = [
    ['stacks_ingest_entries_total', 'Event-log entries processed by this process.', () => processor.stats.entries],
    ['stacks_ingest_blocks_total', 'Blocks processed by this process.', () => processor.stats.blocks],
    ['stacks_ingest_txs_total', 'Transactions processed by this process.', () => processor.stats.txs],
    ['stacks_ingest_events_total', 'Transaction events processed by this process.', () => processor.stats.events],
    ['stacks_ingest_batches_total', 'Batches stored by this process.', () => processor.stats.batches],
    ['stacks_ingest_gathers_total', 'Live batches started late to gather entries arriving fast (STACKS_API_LIVE_BATCH_MS).', () => processor.stats.gathers],
    ['stacks_ingest_handed_over_total', "Entries whose decode came from the observer's check instead of the decode pool.", () => processor.handoff.taken],
    ['stacks_ingest_decode_seconds_total', 'Time processing waited for decoded entries.', () => processor.stats.decodeMs / 1000],
    ['stacks_ingest_chain_state_loads_total', 'Times lower heights were read back into the chain state from the store.', () => processor.state?.loads ?? 0],
    ['stacks_ingest_apply_seconds_total', 'Time spent applying decoded entries to the chain state.', () => processor.stats.applyMs / 1000],
  ];
  for (const [name, help, read] of totals) {
    counter({
      name,
      help,
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }
  const samples: Array<{ t: number; txs: number }> = [];
  const sample = () => {
    samples.push({ t: performance.now(), txs: processor.stats.txs });
    while (samples.length > 1 && samples[samples.length - 1].t - samples[0].t > RATE_WINDOW_MS) samples.shift();
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  timer.unref();
  gauge({
    name: 'stacks_ingest_txs_per_second',
    help: `Transactions processed per second over the last ${RATE_WINDOW_MS / 1000} s.`,
    collect() {
      sample();
      const first = samples[0];
      const last = samples[samples.length - 1];
      this.set(last.t > first.t ? ((last.txs - first.txs) * 1000) / (last.t - first.t) : 0);
    },
  });
  if (pool) {
    gauge({ name: 'stacks_ingest_decode_queue', help: 'Decode tasks not yet handed to a decode pool thread (each thread holds up to 4 queued).', collect() { this.set(pool.queueSize); } });
    gauge({ name: 'stacks_ingest_decode_threads', help: 'Decode pool threads.', collect() { this.set(pool.threads); } });
  }
  const insert = histogram({ name: 'stacks_ingest_insert_duration_seconds', help: 'Time to store one batch (ClickHouse inserts, then the serving store).', buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] });
  processor.onBatchStored = (ms) => insert.observe(ms / 1000);
  return () => clearInterval(timer);
}
