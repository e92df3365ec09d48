// Reads the event log in order from the checkpoint, decodes entries in the pool (a few ahead),
// applies them to the chain state and inserts their rows in batches. A failure stops processing at
// that entry and is reported; a restart resumes from the last committed batch.
import { join } from 'node:path';
import type { Store } from '../../storage/client.ts';
import type { DecodePool } from '../../workers/pool.ts';
import type { DecodeOutcome, DecodedEvent } from '../../workers/decoded.ts';
import { targetTable } from '../../workers/rows.ts';
import { EVENT_TABLE_BIT } from '../../workers/event-tables.ts';
import { readRecords } from '../event-log/reader.ts';
import { RecordStatus, type EventRecord } from '../event-log/record.ts';
import { Batch, TargetInsertError } from './batch.ts';
import type { EntryRef } from './row-owners.ts';
import { loadChainState, type ChainState } from './chain-state.ts';
import { readCheckpoint, writeCheckpoint, type Checkpoint } from './checkpoint.ts';
import { applyEntry } from './apply-entry.ts';
import { compactPendingSet } from './apply-mempool.ts';
import type { ApplyContext } from './context.ts';

/**
 * Insert order: facts, then running totals, then the overlays, block_canonical last. Recovery relies
 * on it: a merge may fold an overlay row of an interrupted batch over an older version, losing the
 * "as of committed" state of that key. Block fork choice reads only block_canonical, which is
 * inserted last, so if any of its rows were stored every other table of the batch was too (and the
 * redo's inserts are dropped by their tokens); if none were, fork choice is exact. After a redo the
 * state is reloaded as of the redone batch, where only the newest version of each key matters.
 */
const INSERT_LAST = ['microblock_canonical', 'mempool_status', 'mempool_pending', 'balances', 'block_canonical'];

const BATCH_BYTES = 48 * 1024 * 1024;
const BATCH_ENTRIES = 20_000;
const READ_AHEAD = 16;


/** Blocks, txs and events seen, for progress and benchmarks. */
function countEntry(stats: Processor['stats'], ev: DecodedEvent): void {
  if (ev.kind !== 'block' && ev.kind !== 'microblocks') return;
  if (ev.kind === 'block') stats.blocks++;
  stats.txs += ev.txs.length;
  for (const [target, text] of Object.entries(ev.facts)) {
    if (!Object.hasOwn(EVENT_TABLE_BIT, targetTable(target))) continue;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) stats.events++;
  }
}

/** Storing a batch failed: named by the entry of the refused row when the engine said which row,
 *  else by the batch's range (its rows go in together). */
class BatchInsertError extends Error {
  readonly entry: EntryRef | undefined;
  constructor(readonly from: number, readonly to: number, cause: Error) {
    const entry = cause instanceof TargetInsertError ? cause.entry : undefined;
    const table = cause instanceof TargetInsertError ? targetTable(cause.target) : undefined;
    super(entry ? `storing its rows in ${table} failed: ${cause.message}` : `storing the rows of event log entries ${from}-${to} failed: ${cause.message}`);
    this.entry = entry;
  }
}

export interface ProcessorError {
  logId: number;
  path: string;
  message: string;
}

export interface ProcessorOptions {
  store: Store;
  logDir: string;
  pool: DecodePool;
  /** Highest log id safe to process (the writer's durable id); unbounded for a closed log. */
  durableId?: () => number;
  checkpointFile?: string;
  /** See Config.mempoolCleanupMs (default 30 s). */
  mempoolCleanupMs?: number;
}

export class Processor {
  state!: ChainState;
  checkpoint!: Checkpoint;
  error: ProcessorError | null = null;
  /** Decoded results handed over by the observer, so live entries are not decoded twice. */
  readonly handoff = new Map<number, DecodeOutcome>();
  private running: Promise<void> | null = null;
  private rerun = false;
  private stopped = false;
  readonly stats = { entries: 0, rejected: 0, quarantined: 0, blocks: 0, txs: 0, events: 0, batches: 0, decodeMs: 0, applyMs: 0, insertMs: 0, bytes: 0 };
  private readonly checkpointFile: string;
  private lastMempoolCleanup = performance.now();

  constructor(private readonly opts: ProcessorOptions) {
    this.checkpointFile = opts.checkpointFile ?? join(opts.logDir, 'checkpoint.json');
  }

  /** Counts stored batches that orphaned a canonical block; what a mined, canonical tx looks like
   *  changes only when this does. */
  reorgGeneration = 0;

  get committedId(): number {
    return this.checkpoint.committed;
  }

  async init(): Promise<void> {
    this.checkpoint = readCheckpoint(this.checkpointFile);
    this.state = await loadChainState(this.opts.store, this.checkpoint.committed);
    const pending = this.checkpoint.pending;
    if (pending) {
      // Redo the interrupted batch exactly: same entries, same tokens; then reload (see INSERT_ORDER).
      await this.processRange(pending.to, pending.to);
      if (!this.error) this.state = await loadChainState(this.opts.store, this.checkpoint.committed);
    }
  }

  /** Processes everything durable now; concurrent calls coalesce. */
  kick(): Promise<void> {
    if (this.running) {
      this.rerun = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.rerun = false;
          await this.processRange(this.opts.durableId?.() ?? Number.MAX_SAFE_INTEGER);
        } while (this.rerun && !this.error && !this.stopped);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Starts over from the checkpoint after processing stopped (an operator quarantined the entry
   *  it stopped at): the interrupted batch is redone without it, then everything durable. */
  async resume(): Promise<void> {
    if (!this.error || this.running || this.stopped) return;
    this.error = null;
    const restart = this.init().catch((e: Error) => {
      this.error ??= { logId: this.checkpoint.committed + 1, path: '', message: e.message };
    });
    this.running = restart;
    await restart;
    this.running = null;
    if (!this.error) await this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** Processes entries after the checkpoint up to `until`; a batch closes at `forceFlushAt` or by size. */
  private async processRange(until: number, forceFlushAt?: number): Promise<void> {
    if (this.error || until <= this.checkpoint.committed) return;
    let batch = new Batch();
    // A batch's insert runs while the next batch is decoded and applied (the engine and our decoding
    // share two cores; serialized, each waited for the other); one insert at a time, in order.
    const storing: { insert: Promise<void> | null } = { insert: null };
    const startFlush = async (b: Batch) => {
      await storing.insert;
      storing.insert = this.flush(b);
      storing.insert.catch(() => {}); // observed when awaited
    };
    const earlierBatchesStored = async () => {
      await storing.insert;
    };
    const ctxFor = (rec: EventRecord): ApplyContext => ({
      store: this.opts.store,
      state: this.state,
      batch,
      logId: rec.id,
      receivedAt: rec.receivedAt,
      mempool: new Map(),
      body: rec.body,
      pool: this.opts.pool,
      logDir: this.opts.logDir,
      earlierBatchesStored,
    });
    const window: Array<{ rec: EventRecord; outcome: Promise<DecodeOutcome | null> }> = [];
    const records = readRecords(this.opts.logDir, { afterId: this.checkpoint.committed, untilId: until });
    let exhausted = false;
    let current: EventRecord | undefined;
    const fill = async () => {
      while (!exhausted && window.length < READ_AHEAD) {
        const next = await records.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        const rec = next.value;
        window.push({ rec, outcome: this.decode(rec) });
      }
    };
    try {
      await fill();
      while (window.length > 0 && !this.stopped) {
        const { rec, outcome } = window.shift()!;
        current = rec;
        const t0 = performance.now();
        const decoded = await outcome;
        this.stats.decodeMs += performance.now() - t0;
        const t1 = performance.now();
        if (rec.status === RecordStatus.Quarantined) this.stats.quarantined++;
        else if (!decoded || !decoded.ok) this.stats.rejected++;
        else countEntry(this.stats, decoded.event);
        if (decoded) await applyEntry(ctxFor(rec), rec.path, decoded);
        this.stats.applyMs += performance.now() - t1;
        batch.noteEntry(rec.id, rec.path);
        this.stats.entries++;
        this.stats.bytes += rec.body.length;
        const mustFlush = forceFlushAt === undefined ? batch.size >= BATCH_BYTES || batch.entries >= BATCH_ENTRIES : rec.id === forceFlushAt;
        if (mustFlush) {
          await startFlush(batch);
          batch = new Batch();
        }
        await fill();
      }
      if (!batch.isEmpty && !this.stopped) await startFlush(batch);
      await storing.insert;
    } catch (caught) {
      // An insert still running for earlier entries ends first; if it failed, that is the first failure.
      const earlier = await storing.insert?.then(() => null, (e: unknown) => e);
      const err = (earlier ?? caught) as Error;
      const at = err instanceof BatchInsertError ? (err.entry?.id ?? err.from) : (current?.id ?? this.checkpoint.committed + 1);
      this.error = { logId: at, path: err instanceof BatchInsertError ? (err.entry?.path ?? '') : (current?.path ?? ''), message: (err as Error).message ?? String(err) };
      console.error(`processor: stopped at event log entry ${at}:`, err);
    } finally {
      await records.return(undefined);
    }
  }

  private decode(rec: EventRecord): Promise<DecodeOutcome | null> {
    // Refused by the observer, or set aside by an operator: never processed.
    if (rec.status === RecordStatus.Rejected || rec.status === RecordStatus.Quarantined) return Promise.resolve(null);
    const handed = this.handoff.get(rec.id);
    if (handed) {
      this.handoff.delete(rec.id);
      return Promise.resolve(handed);
    }
    return this.opts.pool.decode(rec.path, rec.body);
  }

  private async flush(batch: Batch): Promise<void> {
    const t0 = performance.now();
    this.checkpoint = { committed: this.checkpoint.committed, pending: { from: batch.from, to: batch.to } };
    writeCheckpoint(this.checkpointFile, this.checkpoint);
    try {
      await batch.insert(this.opts.store, INSERT_LAST);
    } catch (e) {
      throw new BatchInsertError(batch.from, batch.to, e as Error);
    }
    if (batch.reorged) this.reorgGeneration++;
    this.checkpoint = { committed: batch.to, pending: null };
    writeCheckpoint(this.checkpointFile, this.checkpoint);
    this.stats.batches++;
    if (performance.now() - this.lastMempoolCleanup >= (this.opts.mempoolCleanupMs ?? 30_000)) {
      this.lastMempoolCleanup = performance.now();
      await compactPendingSet(this.opts.store);
    }
    this.stats.insertMs += performance.now() - t0;
  }
}
