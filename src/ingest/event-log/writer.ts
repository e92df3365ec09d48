// Appends observer requests to the event log and makes them durable (fdatasync) before the caller
// answers the node. Appends are serialized in id order; concurrent appends share one fdatasync
// (group commit), so a burst of deliveries costs one disk flush, not one each.
import { mkdirSync, openSync, closeSync, ftruncateSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { encodeHeader, recordSize, trailerBytes, RecordStatus } from './record.ts';
import { listSegments, segmentPath } from './segments.ts';
import { readHeaderAt } from './reader.ts';

export interface AppendInput {
  path: string;
  body: Buffer;
  status?: RecordStatus;
  note?: string;
  receivedAt?: number;
}

const SEGMENT_BYTES = 512 * 1024 * 1024;
const IOV_BATCH = 512;

/** The parts still to write after a (possibly short) writev of `written` bytes. */
function skipWritten(parts: Buffer[], written: number): Buffer[] {
  let i = 0;
  while (i < parts.length && written >= parts[i].length) written -= parts[i++].length;
  if (i >= parts.length) return [];
  return [parts[i].subarray(written), ...parts.slice(i + 1)];
}

export class EventLogWriter {
  private fh!: FileHandle;
  private size = 0;
  private nextId = 1;
  private writeChain: Promise<void> = Promise.resolve();
  private syncing: Promise<void> | null = null;
  private writtenId = 0;
  private durable = 0;
  private readonly listeners = new Set<(id: number) => void>();

  private constructor(readonly dir: string) {}

  static async open(dir: string): Promise<EventLogWriter> {
    mkdirSync(dir, { recursive: true });
    const w = new EventLogWriter(dir);
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
      await this.openSegment(1);
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
    this.writtenId = lastId;
    this.durable = lastId;
    this.fh = await open(last.path, 'r+');
    this.size = offset;
  }

  private async openSegment(firstId: number): Promise<void> {
    const path = segmentPath(this.dir, firstId);
    this.fh = await open(path, 'a+');
    this.size = (await this.fh.stat()).size;
  }

  /** Appends one record and resolves with its id once it is durable. */
  async append(input: AppendInput): Promise<number> {
    const [id] = await this.appendMany([input]);
    return id;
  }

  /** Appends records in order with one write and one sync; resolves with their ids once durable. */
  async appendMany(inputs: AppendInput[]): Promise<number[]> {
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
    const last = ids[ids.length - 1];
    const written = (this.writeChain = this.writeChain.then(async () => {
      if (this.size >= SEGMENT_BYTES) await this.rotate(ids[0]);
      let position = this.size;
      // writev: one syscall for many parts (at most IOV_BATCH at a time), retried on short writes.
      for (let i = 0; i < parts.length; i += IOV_BATCH) {
        let batch = parts.slice(i, i + IOV_BATCH);
        while (batch.length > 0) {
          const { bytesWritten } = await this.fh.writev(batch, position);
          position += bytesWritten;
          batch = skipWritten(batch, bytesWritten);
        }
      }
      this.size = position;
      this.writtenId = last;
    }));
    await written;
    await this.syncThrough(last);
    return ids;
  }

  private async rotate(firstId: number): Promise<void> {
    if (this.syncing) await this.syncing;
    await this.fh.datasync();
    await this.fh.close();
    await this.openSegment(firstId);
  }

  /** Group commit: one fdatasync covers every record written before it started. */
  private async syncThrough(id: number): Promise<void> {
    while (this.durable < id) {
      if (this.syncing) {
        await this.syncing;
        continue;
      }
      const target = this.writtenId;
      this.syncing = this.fh.datasync().then(() => {
        this.durable = Math.max(this.durable, target);
        this.syncing = null;
        for (const l of this.listeners) l(this.durable);
      });
      await this.syncing;
    }
  }

  async close(): Promise<void> {
    await this.writeChain;
    if (this.syncing) await this.syncing;
    await this.fh.datasync();
    await this.fh.close();
  }
}
