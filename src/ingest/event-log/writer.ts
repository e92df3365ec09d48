// Appends observer requests to the event log and makes them durable (fdatasync) before the caller
// answers the node. Appends are serialized in id order; the appends of one event-loop turn share one
// write and one fdatasync (group commit), so a burst of deliveries costs one disk flush, not one each.
//
// The write and the sync are synchronous calls on purpose: async fs calls run on the libuv
// threadpool, which chdb shares for every query and insert, so a sync queued behind long inserts
// kept the node waiting (ack p99). In the service the writer runs on the observer thread, which
// hands the sync to a thread of its own (sync-thread.ts) and renders documents while it runs.
import { mkdirSync, openSync, closeSync, ftruncateSync, fstatSync, writevSync, fdatasyncSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { encodeHeader, recordSize, trailerBytes, RecordStatus } from './record.ts';
import { listSegments, segmentPath } from './segments.ts';
import { readHeaderAt } from './reader.ts';
import { CompressedSegment } from './compressed-segment.ts';

export interface AppendInput {
  path: string;
  body: Buffer;
  status?: RecordStatus;
  note?: string;
  receivedAt?: number;
}

/** A new segment starts once the current one is this large. Only whole segments are compressed,
 *  once every record in them is processed (compactor.ts), so the newest stays plain: at 32 MiB that
 *  is at most 16% of a 100k-tx log (204 MiB) and 1.5% of a 1M-tx one, in ~65 files per 1M txs. */
export const SEGMENT_BYTES = 32 * 1024 * 1024;
const IOV_BATCH = 512;

/** The parts still to write after a (possibly short) writev of `written` bytes. */
function skipWritten(parts: Buffer[], written: number): Buffer[] {
  let i = 0;
  while (i < parts.length && written >= parts[i].length) written -= parts[i++].length;
  if (i >= parts.length) return [];
  return [parts[i].subarray(written), ...parts.slice(i + 1)];
}

interface PendingAppend {
  firstId: number;
  lastId: number;
  parts: Buffer[];
  resolve: () => void;
  reject: (e: Error) => void;
}

export class EventLogWriter {
  private fd = -1;
  private size = 0;
  private nextId = 1;
  private durable = 0;
  private pending: PendingAppend[] = [];
  private flushScheduled = false;
  /** A flush waiting for its sync (asynchronous syncs only); appends meanwhile wait for the next. */
  private syncing: Promise<void> | null = null;
  /** A failed write or sync leaves the file's tail unknown: every later append fails (a restart
   *  recovers by truncating the torn tail). */
  private failed: Error | null = null;
  private readonly listeners = new Set<(id: number) => void>();

  private constructor(
    readonly dir: string,
    private readonly segmentBytes: number,
    private readonly syncData?: (fd: number) => Promise<void>,
  ) {}

  /** `segmentBytes`: a new segment file starts once the current one is this large (smaller in
   *  tests). `sync`: makes the written data durable off this thread (sync-thread.ts); unset, each
   *  flush calls fdatasync itself. */
  static async open(dir: string, segmentBytes = SEGMENT_BYTES, sync?: (fd: number) => Promise<void>): Promise<EventLogWriter> {
    mkdirSync(dir, { recursive: true });
    const w = new EventLogWriter(dir, segmentBytes, sync);
    await w.recover();
    return w;
  }

  /** Id of the newest record that is on disk and synced. */
  get durableId(): number {
    return this.durable;
  }

  /** Called with the newest durable id after every sync. */
  onDurable(listener: (id: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Finds the end of the last segment, dropping a record cut short by a crash. */
  private async recover(): Promise<void> {
    const segments = listSegments(this.dir);
    const last = segments.at(-1);
    if (!last) {
      this.openSegment(1);
      return;
    }
    if (last.compressed) {
      // Never so here (the newest segment is the one written), but such a log goes on in a new one.
      const lastId = await compressedLastId(last.path);
      this.nextId = lastId + 1;
      this.durable = lastId;
      this.openSegment(this.nextId);
      return;
    }
    const fh = await open(last.path, 'r');
    let offset = 0;
    let lastId = last.firstId - 1;
    try {
      const size = (await fh.stat()).size;
      for (;;) {
        const h = await readHeaderAt(fh, offset, size);
        if (!h) break;
        lastId = h.id;
        offset += recordSize(h);
      }
      if (offset < size) {
        // A torn tail: never acknowledged, so dropping it loses nothing the node considers delivered.
        const fd = openSync(last.path, 'r+');
        ftruncateSync(fd, offset);
        closeSync(fd);
      }
    } finally {
      await fh.close();
    }
    this.nextId = lastId + 1;
    this.durable = lastId;
    this.fd = openSync(last.path, 'r+');
    this.size = offset;
  }

  private openSegment(firstId: number): void {
    this.fd = openSync(segmentPath(this.dir, firstId), 'a+');
    this.size = fstatSync(this.fd).size;
  }

  /** Appends one record and resolves with its id once it is durable. */
  async append(input: AppendInput): Promise<number> {
    const [id] = await this.appendMany([input]);
    return id;
  }

  /** Appends records in order; resolves with their ids once durable. */
  appendMany(inputs: AppendInput[]): Promise<number[]> {
    if (this.failed) return Promise.reject(this.failed);
    const ids: number[] = [];
    const parts: Buffer[] = [];
    for (const input of inputs) {
      const id = this.nextId++;
      ids.push(id);
      const pathBytes = Buffer.from(input.path, 'utf8');
      const noteBytes = Buffer.from(input.note ?? '', 'utf8');
      const header = encodeHeader(
        { id, receivedAt: input.receivedAt ?? Date.now(), path: input.path, status: input.status ?? RecordStatus.Accepted, note: input.note ?? '', bodyLength: input.body.length },
        pathBytes,
        noteBytes,
      );
      parts.push(header, pathBytes, noteBytes, input.body, trailerBytes());
    }
    return new Promise((resolve, reject) => {
      this.pending.push({ firstId: ids[0], lastId: ids[ids.length - 1], parts, resolve: () => resolve(ids), reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Writes every pending append (one writev per IOV_BATCH parts) and syncs once. */
  private flush(): void {
    this.flushScheduled = false;
    // One flush at a time: the next one starts when this sync ends, with every append since.
    if (this.syncing) return;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      if (this.failed) throw this.failed;
      if (this.size >= this.segmentBytes) this.rotate(batch[0].firstId);
      const parts = batch.flatMap((a) => a.parts);
      let position = this.size;
      for (let i = 0; i < parts.length; i += IOV_BATCH) {
        let rest = parts.slice(i, i + IOV_BATCH);
        while (rest.length > 0) {
          const written = writevSync(this.fd, rest, position);
          position += written;
          rest = skipWritten(rest, written);
        }
      }
      this.size = position;
      if (this.syncData) {
        this.syncing = this.syncData(this.fd).then(
          () => this.synced(batch),
          (e: Error) => this.syncFailed(batch, e),
        );
        return;
      }
      fdatasyncSync(this.fd);
    } catch (e) {
      this.syncFailed(batch, e as Error);
      return;
    }
    this.synced(batch);
  }

  private synced(batch: PendingAppend[]): void {
    this.syncing = null;
    this.durable = batch[batch.length - 1].lastId;
    for (const l of this.listeners) l(this.durable);
    for (const a of batch) a.resolve();
    if (this.pending.length > 0) this.flush();
  }

  private syncFailed(batch: PendingAppend[], e: Error): void {
    this.syncing = null;
    this.failed ??= e;
    for (const a of batch) a.reject(this.failed);
    if (this.pending.length > 0) this.flush();
  }

  /** Until no flush is waiting for its sync. */
  private async settled(): Promise<void> {
    while (this.syncing) await this.syncing;
  }

  /** Starts a new segment once everything appended is durable, so that the current one can be
   *  compressed as soon as it is processed (the end of an import: the log's tail is not left plain). */
  seal(): void {
    if (this.syncing) throw new Error('seal() while a sync is running (writers with an asynchronous sync are not sealed)');
    this.flush();
    if (this.failed || this.size === 0) return;
    this.rotate(this.nextId);
  }

  private rotate(firstId: number): void {
    fdatasyncSync(this.fd);
    closeSync(this.fd);
    this.openSegment(firstId);
  }

  async close(): Promise<void> {
    await this.settled();
    this.flush();
    await this.settled();
    if (this.fd < 0) return;
    if (!this.failed) fdatasyncSync(this.fd);
    closeSync(this.fd);
    this.fd = -1;
  }
}

async function compressedLastId(path: string): Promise<number> {
  const seg = await CompressedSegment.open(path);
  await seg.close();
  return seg.index.lastId;
}
