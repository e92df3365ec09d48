// Reads the event log in order from the checkpoint, decodes entries in the pool (a few ahead),
// applies them to the chain state and inserts their rows in batches. A failure stops processing at
// that entry and is reported; a restart resumes from the last committed batch.
import { DecodeHandoff } from './handoff.ts';
import { trimMalloc } from '../../runtime/process-memory.ts';
import { join } from 'node:path';
import type { Store } from '../../storage/client.ts';
import type { DecodePool } from '../../workers/pool.ts';
import type { DecodeOutcome, DecodedEvent } from '../../workers/decoded.ts';
import { targetTable } from '../../workers/rows.ts';
import { EVENT_TABLE_BIT } from '../../storage/event-tables.ts';
import { readRecords, type ReadPosition } from '../event-log/reader.ts';
import { RecordStatus, type EventRecord } from '../event-log/record.ts';
import { Batch, TargetInsertError } from './batch.ts';
import type { EntryRef } from './row-owners.ts';
import type { ChainState } from './chain-state.ts';
import { forgetOldHeights, loadChainState } from './chain-load.ts';
import { readCheckpoint, writeCheckpoint, type Checkpoint } from './checkpoint.ts';
import { applyEntry } from './apply-entry.ts';
import { DecodeAhead } from './decode-ahead.ts';
import { compactPendingSet, completeMempoolDocs } from './apply-mempool.ts';
import type { ApplyContext } from './context.ts';
import type { ServingWriter } from '../../serving/writer.ts';
import type { ServingView } from '../../serving/view.ts';
import { progress } from '../progress.ts';
import { failpoint, storeDelay } from './failpoints.ts';
import { minedNonceKey } from './mempool-nonces.ts';
import { minedNonce, StoreNonceCeilings } from '../../serving/mined-nonce.ts';

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
// Tests make batches small to put crash points in the middle of a short log.
const BATCH_ENTRIES = Number(process.env.STACKS_API_TEST_BATCH_ENTRIES) || 20_000;
/** Entries read and sent to the decode pool ahead of the one being applied (DecodeAhead groups
 *  them into tasks, so this keeps a few tasks in flight), and at most this many bytes of them. */
const READ_AHEAD = 256;
const READ_AHEAD_BYTES = 32 * 1024 * 1024;
/** Entries a second arriving, measured over the last live range, from which the next one gathers
 *  (gatherWhileArriving): several times a mainnet node's rate at the chain's tip (a block every few
 *  seconds, a few mempool txs a second), well below a node that catches up. */
const GATHER_FROM_RATE = 20;
/** Fewer entries in a range than this measure no rate (the first range after a start, say). */
const GATHER_MIN_ENTRIES = 10;


/** A lookup remembered for one entry: a mempool entry asks for an announced tx's (sender, nonce)
 *  twice (is it fresh; who wins the nonce), and no mined tx changes while one entry is applied. */
function memoPerEntry(lookup: (sender: string, nonce: number) => string | undefined): (sender: string, nonce: number) => string | undefined {
  const seen = new Map<string, string | undefined>();
  return (sender, nonce) => {
    const key = minedNonceKey(sender, nonce);
    if (seen.has(key)) return seen.get(key);
    const found = lookup(sender, nonce);
    seen.set(key, found);
    return found;
  };
}

/** Blocks, txs and events seen, for progress and benchmarks. */
function countEntry(stats: Processor['stats'], ev: DecodedEvent): void {
  if (ev.kind !== 'block' && ev.kind !== 'microblocks') return;
  if (ev.kind === 'block') stats.blocks++;
  stats.txs += ev.txs.length;
  for (const [target, fragment] of Object.entries(ev.facts)) {
    if (Object.hasOwn(EVENT_TABLE_BIT, targetTable(target))) stats.events += fragment.rows;
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
  /** A batch also closes after this long (live: entries arriving while one is applied join it, and
   *  under load, a backlog or the API taking the main thread, it would otherwise commit, and be
   *  readable and announced, only at its size limit); under load, live ranges also start this far
   *  apart (gatherWhileArriving). Unset: by size alone (imports). */
  maxBatchMs?: number;
  /** Called with each entry's id as it is read from the log (EventLog.noteRead). */
  onRead?: (id: number) => void;
  /** See Config.mempoolCleanupMs (default 30 s). */
  mempoolCleanupMs?: number;
  /** The serving store, written with each batch (src/serving). */
  serving?: { writer: ServingWriter; view: ServingView };
  /** Another process writes ClickHouse: only the serving store is written here, and facts read back
   *  for a reorg are awaited until that writer has stored them. */
  servingOnly?: { factsStored: (logId: number) => Promise<void> };
}

export class Processor {
  state!: ChainState;
  checkpoint!: Checkpoint;
  error: ProcessorError | null = null;
  /** Decoded results handed over by the observer, so live entries are not decoded twice. */
  readonly handoff = new DecodeHandoff();
  private running: Promise<void> | null = null;
  private rerun = false;
  private stopped = false;
  /** Called after each batch is stored in ClickHouse, with the time its store took (metrics). */
  onBatchStored?: (ms: number) => void;
  readonly stats = { entries: 0, rejected: 0, quarantined: 0, blocks: 0, txs: 0, events: 0, batches: 0, gathers: 0, decodeMs: 0, applyMs: 0, insertMs: 0, servingMs: 0, bytes: 0 };
  private readonly checkpointFile: string;
  private lastMempoolCleanup = performance.now();

  constructor(private readonly opts: ProcessorOptions) {
    this.checkpointFile = opts.checkpointFile ?? join(opts.logDir, 'checkpoint.json');
  }

  /** Counts stored batches that orphaned a canonical block; what a mined, canonical tx looks like
   *  changes only when this does. */
  reorgGeneration = 0;
  /** The last entry read from the log and where the one after it starts: the next range reads on
   *  from there (live, a range per batch) instead of from its segment's start. */
  private readThrough: { id: number; next: ReadPosition } | null = null;
  /** Batches ending at or before this entry are already in ClickHouse (a serving store catching up). */
  private storedThrough = 0;

  get committedId(): number {
    return this.checkpoint.committed;
  }

  /** Where ClickHouse is as the serving view compares with it (view.ready): without the batch
   *  whose serving write runs beside the next insert, which is meant to be that far behind. */
  get storedThroughForView(): number {
    return this.servingFrom ?? this.checkpoint.committed;
  }

  /** The last entry readable everywhere: in ClickHouse and, with one, in the serving store (whose
   *  write of a batch ends while the next batch is stored in ClickHouse). */
  get processedId(): number {
    const serving = this.opts.serving;
    return serving ? Math.min(this.checkpoint.committed, serving.view.appliedLogId) : this.checkpoint.committed;
  }

  async init(): Promise<void> {
    this.checkpoint = readCheckpoint(this.checkpointFile);
    const applied = this.opts.serving?.writer.appliedLogId ?? Number.MAX_SAFE_INTEGER;
    if (this.opts.servingOnly) {
      // Following another writer: the serving store's own marker is the position.
      this.checkpoint = { committed: applied, pending: null };
      this.state = await loadChainState(this.opts.store, applied);
      return;
    }
    if (applied < this.checkpoint.committed) {
      // The serving store is behind ClickHouse (new, rebuilt, or older than this version): the log
      // is replayed into it alone, from the chain state as of the entry it holds.
      this.state = await loadChainState(this.opts.store, applied);
      await this.catchUpServing(applied, this.checkpoint.committed);
      if (this.error) return;
    } else this.state = await loadChainState(this.opts.store, this.checkpoint.committed);
    const pending = this.checkpoint.pending;
    if (pending) {
      // Redo the interrupted batch exactly: same entries, same tokens; then reload (see INSERT_ORDER).
      await this.processRange(pending.to, { forceFlushAt: pending.to });
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
          await this.gatherWhileArriving();
          const previousAt = this.lastRangeAt;
          this.lastRangeAt = performance.now();
          const before = this.stats.entries;
          await this.processRange(this.opts.durableId?.() ?? Number.MAX_SAFE_INTEGER);
          const read = this.stats.entries - before;
          this.arrivalRate = read < GATHER_MIN_ENTRIES ? 0 : (read * 1000) / Math.max(1, this.lastRangeAt - previousAt);
        } while (this.rerun && !this.error && !this.stopped);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** When the last live range began, and the entries a second that arrived for it (the entries it
   *  read over the time since the range before it began). */
  private lastRangeAt = -Infinity;
  private arrivalRate = 0;
  /** Ends the wait of gatherWhileArriving early (stop). */
  private endGathering: (() => void) | null = null;

  /**
   * Live, under load (entries arriving at GATHER_FROM_RATE a second or more), the next range starts
   * maxBatchMs after the last one began, so that its batch holds what arrived meanwhile. Caught up
   * with a node that sends fast, a range otherwise held the few entries since the last, and each
   * batch is an insert into every table its entries touch: the engine's merges of those small
   * parts cost more than decoding them, and a processor that keeps reading the log's newest entry
   * leaves the observer's decodes unused (100k log: bench/RESULTS.md, twenty-first session). At
   * the chain's tip, a block or a few mempool txs at a time, each range starts at once.
   */
  private async gatherWhileArriving(): Promise<void> {
    const wait = this.arrivalRate >= GATHER_FROM_RATE ? this.lastRangeAt + (this.opts.maxBatchMs ?? 0) - performance.now() : 0;
    if (wait <= 0 || this.stopped) return;
    this.stats.gathers++;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      this.endGathering = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.endGathering = null;
  }

  /** Replays entries (from, to] into the serving store only, with progress. */
  private async catchUpServing(from: number, to: number): Promise<void> {
    const bar = progress('serving store: replaying the event log', to - from);
    const timer = setInterval(() => bar.update(this.opts.serving!.view.appliedLogId - from), 1000);
    this.storedThrough = to;
    try {
      await this.processRange(to, { after: from, boundary: to });
    } finally {
      clearInterval(timer);
      this.storedThrough = 0;
      bar.update(this.opts.serving!.view.appliedLogId - from);
      bar.finish();
    }
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
    this.endGathering?.();
    await this.running;
  }

  /**
   * Processes entries after `after` (default: the checkpoint) up to `until`. A batch closes at
   * `forceFlushAt` only, or else by size and at `boundary`.
   */
  private async processRange(until: number, opts: { forceFlushAt?: number; after?: number; boundary?: number } = {}): Promise<void> {
    const { forceFlushAt, after = this.checkpoint.committed, boundary } = opts;
    if (this.error || until <= after) return;
    let batch = new Batch(!!this.opts.serving);
    let batchOpened = performance.now();
    const maxBatchMs = this.opts.maxBatchMs ?? Infinity;
    // A batch's insert runs while the next batch is decoded and applied (the engine and our decoding
    // share two cores; serialized, each waited for the other); one insert at a time, in order.
    const storing: { insert: Promise<void> | null } = { insert: null };
    const startFlush = async (b: Batch) => {
      // The chain as this batch leaves it (the next batch is applied while this one is stored).
      b.serving.snapshot = { tip: this.state.tip ? { index_block_hash: this.state.tip.index_block_hash, block_height: this.state.tip.block_height } : null, liveMicroblocks: this.state.liveMicroblocks(), reorged: b.reorged };
      await storing.insert;
      storing.insert = this.flush(b);
      storing.insert.catch(() => {}); // observed when awaited
      // What this batch changed is now handed to the store: heights far below the tip can go.
      forgetOldHeights(this.state);
    };
    const earlierBatchesStored = async () => {
      await storing.insert;
      await this.servingWrite;
      if (this.opts.servingOnly && current) await this.opts.servingOnly.factsStored(current.id - 1);
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
      minedNonce: memoPerEntry((sender, nonce) => minedNonce((a, n) => this.state.minedNonces.get(minedNonceKey(a, n)), this.opts.serving?.writer.store, sender, nonce, this.nonceCeilings)),
    });
    const window: Array<{ rec: EventRecord; outcome: Promise<DecodeOutcome | null> }> = [];
    let windowBytes = 0;
    const ahead = new DecodeAhead(this.opts.pool, this.handoff);
    const known = this.readThrough?.id === after ? this.readThrough.next : undefined;
    const records = readRecords(this.opts.logDir, { afterId: after, untilId: until, at: known });
    let exhausted = false;
    let current: EventRecord | undefined;
    const fill = async () => {
      while (!exhausted && window.length < READ_AHEAD && windowBytes < READ_AHEAD_BYTES) {
        const next = await records.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        const rec = next.value;
        this.readThrough = { id: rec.id, next: { segment: rec.position.segment, offset: rec.position.offset + rec.size } };
        this.opts.onRead?.(rec.id);
        window.push({ rec, outcome: ahead.add(rec) });
        windowBytes += rec.body.length;
      }
      // The log has no more for the moment: what is gathered goes now.
      if (exhausted) ahead.send();
    };
    try {
      await fill();
      while (window.length > 0 && !this.stopped) {
        const { rec, outcome } = window.shift()!;
        windowBytes -= rec.body.length;
        current = rec;
        const t0 = performance.now();
        ahead.sendWith(rec);
        const decoded = await outcome;
        this.stats.decodeMs += performance.now() - t0;
        const t1 = performance.now();
        if (rec.status === RecordStatus.Quarantined) this.stats.quarantined++;
        else if (!decoded || !decoded.ok) this.stats.rejected++;
        else countEntry(this.stats, decoded.event);
        batch.serving.beginEntry(rec.id);
        if (decoded) await applyEntry(ctxFor(rec), rec.path, decoded);
        this.stats.applyMs += performance.now() - t1;
        batch.noteEntry(rec.id, rec.path);
        this.stats.entries++;
        this.stats.bytes += rec.body.length;
        const full = batch.size >= BATCH_BYTES || batch.entries >= BATCH_ENTRIES || performance.now() - batchOpened >= maxBatchMs;
        const mustFlush = forceFlushAt === undefined ? full || rec.id === boundary : rec.id === forceFlushAt;
        if (mustFlush) {
          await startFlush(batch);
          batch = new Batch(!!this.opts.serving);
          batchOpened = performance.now();
        }
        await fill();
      }
      if (!batch.isEmpty && !this.stopped) await startFlush(batch);
      await storing.insert;
      await this.servingWrite;
    } catch (caught) {
      // An insert still running for earlier entries ends first; if it failed, that is the first failure.
      const earlier = (await storing.insert?.then(() => null, (e: unknown) => e)) ?? (await this.servingWrite.then(() => null, (e: unknown) => e));
      this.servingWrite = Promise.resolve();
      const err = (earlier ?? caught) as Error;
      const at = err instanceof BatchInsertError ? (err.entry?.id ?? err.from) : (current?.id ?? this.checkpoint.committed + 1);
      this.error = { logId: at, path: err instanceof BatchInsertError ? (err.entry?.path ?? '') : (current?.path ?? ''), message: (err as Error).message ?? String(err) };
      console.error(`processor: stopped at event log entry ${at}:`, err);
    } finally {
      await records.return(undefined);
    }
  }

  /** The serving write of the batch last stored in ClickHouse, while it commits. It runs beside
   *  the next batch's insert (LMDB's write thread beside the engine's; one after the other, they
   *  took 45% and 55% of the store time importing the last 100k txs of the 1M-tx log), and ends
   *  before the next serving write and before the insert after that, so the store is never more
   *  than one batch behind ClickHouse. Each write is exactly-once on its own (insert tokens; the
   *  store's applied marker): after a crash between them, start-up replays the log into the
   *  serving store up to the checkpoint (init). */
  private servingWrite: Promise<void> = Promise.resolve();
  /** Accounts' highest nonces in the serving store, kept up to date by its commits. */
  private readonly nonceCeilings = new StoreNonceCeilings();
  /** While a serving write runs: ClickHouse's position before its batch. */
  private servingFrom: number | null = null;

  /** ClickHouse first, then the serving store: a batch the engine refuses (an entry an operator then
   *  quarantines) leaves nothing in the serving store. */
  private async flush(batch: Batch): Promise<void> {
    const t0 = performance.now();
    const toClickHouse = !this.opts.servingOnly && batch.to > this.storedThrough;
    if (toClickHouse) {
      this.checkpoint = { committed: this.checkpoint.committed, pending: { from: batch.from, to: batch.to } };
      writeCheckpoint(this.checkpointFile, this.checkpoint);
    }
    failpoint('before-store');
    // From here until its serving commit ClickHouse may be ahead of the serving store (view.quiet).
    this.opts.serving?.view.beginBatch();
    let handedOver = false;
    try {
      try {
        if (toClickHouse) await batch.insert(this.opts.store, INSERT_LAST);
      } catch (e) {
        throw new BatchInsertError(batch.from, batch.to, e as Error);
      }
      await this.servingWrite;
      this.servingFrom = this.checkpoint.committed;
      this.servingWrite = this.writeServing(batch);
      handedOver = true;
    } finally {
      if (!handedOver) this.opts.serving?.view.endBatch();
    }
    this.servingWrite.catch(() => {}); // observed when awaited
    if (!toClickHouse) {
      // Replaying into the serving store alone (or following a writer): nothing to overlap with.
      await this.servingWrite;
      if (this.opts.servingOnly) this.checkpoint = { committed: batch.to, pending: null };
      this.stats.batches++;
      return;
    }
    this.checkpoint = { committed: batch.to, pending: null };
    writeCheckpoint(this.checkpointFile, this.checkpoint);
    this.stats.batches++;
    // The batch's insert buffers are freed: their pages go back to the kernel, not only to malloc.
    trimMalloc();
    if (performance.now() - this.lastMempoolCleanup >= (this.opts.mempoolCleanupMs ?? 30_000)) {
      this.lastMempoolCleanup = performance.now();
      await compactPendingSet(this.opts.store);
    }
    this.stats.insertMs += performance.now() - t0;
    this.onBatchStored?.(performance.now() - t0);
  }

  /** The batch's serving write; ends the batch begun in flush. */
  private async writeServing(batch: Batch): Promise<void> {
    const serving = this.opts.serving;
    const t0 = performance.now();
    try {
      await storeDelay();
      if (serving) completeMempoolDocs(batch.serving);
      if (serving && batch.to > serving.view.appliedLogId) serving.view.committed(batch.serving, await serving.writer.write(batch.serving, batch.to, this.opts.durableId?.() ?? batch.to), batch.to);
      this.nonceCeilings.committed(batch.serving);
      this.servingFrom = null;
      this.stats.servingMs += performance.now() - t0;
    } catch (e) {
      this.nonceCeilings.clear();
      throw new BatchInsertError(batch.from, batch.to, new Error(`serving store: ${(e as Error).message}`));
    } finally {
      serving?.view.endBatch();
    }
    failpoint('after-serving-commit');
    // After the serving commit: an answer cached under the new generation must show the reorg.
    if (batch.reorged) this.reorgGeneration++;
  }
}
