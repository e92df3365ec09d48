// Sequential reading of the event log, from any id on, across segments.
import { open, type FileHandle } from 'node:fs/promises';
import { decodeHeader, HEADER_SIZE, recordSize, RECORD_TRAILER, TRAILER_SIZE, type EventRecord, type RecordHeader } from './record.ts';
import { listSegments } from './segments.ts';

export interface ReadPosition {
  /** First id of the segment file. */
  segment: number;
  /** Byte offset of the next record in that file. */
  offset: number;
}

/** Reads one record's header at `offset`; null at end of file or at an incomplete record. */
export async function readHeaderAt(fh: FileHandle, offset: number, fileSize: number): Promise<RecordHeader | null> {
  if (offset + HEADER_SIZE > fileSize) return null;
  const buf = Buffer.alloc(HEADER_SIZE);
  await fh.read(buf, 0, HEADER_SIZE, offset);
  const h = decodeHeader(buf);
  if (!h || offset + recordSize(h) > fileSize) return null;
  const t = Buffer.alloc(TRAILER_SIZE);
  await fh.read(t, 0, TRAILER_SIZE, offset + recordSize(h) - TRAILER_SIZE);
  return t.readUInt32BE(0) === RECORD_TRAILER ? h : null;
}

/** Bytes read from a segment at a time: a few large reads instead of three small ones per record
 *  (each async read is a trip through the libuv threadpool, which chdb's queries and inserts fill). */
const CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * Sequential reads of one segment in large chunks. Each chunk is a fresh SharedArrayBuffer, so a
 * record body is a view that the decode workers receive without a copy (a shared view is not
 * cloned), and it stays valid for as long as anyone holds it.
 */
class SegmentChunks {
  private chunk: Buffer<ArrayBufferLike> = Buffer.alloc(0);
  private chunkStart = 0;

  constructor(private readonly fh: FileHandle, private readonly size: number) {}

  /** `length` bytes at `offset` (within the file), as a view on the current or a new chunk. */
  async bytes(offset: number, length: number, ahead = CHUNK_BYTES): Promise<Buffer<ArrayBufferLike>> {
    if (offset < this.chunkStart || offset + length > this.chunkStart + this.chunk.length) {
      const want = Math.min(Math.max(ahead, length), this.size - offset);
      const chunk = Buffer.from(new SharedArrayBuffer(want));
      let got = 0;
      while (got < want) {
        const { bytesRead } = await this.fh.read(chunk, got, want - got, offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      this.chunk = chunk.subarray(0, got);
      this.chunkStart = offset;
    }
    const from = offset - this.chunkStart;
    return this.chunk.subarray(from, Math.min(from + length, this.chunk.length));
  }

  /** The record at `offset`, or null at the end of the file or at an incomplete record. */
  async record(offset: number, withBody: boolean): Promise<{ header: RecordHeader; record: EventRecord } | null> {
    if (offset + HEADER_SIZE > this.size) return null;
    const h = decodeHeader(await this.bytes(offset, HEADER_SIZE));
    if (!h || offset + recordSize(h) > this.size) return null;
    const varLen = h.pathLength + h.noteLength;
    // Without bodies (scans), only the header, path, note and trailer are read.
    const head = await this.bytes(offset, withBody ? recordSize(h) : HEADER_SIZE + varLen);
    const trailer = withBody ? head.subarray(head.length - TRAILER_SIZE) : await this.bytes(offset + recordSize(h) - TRAILER_SIZE, TRAILER_SIZE);
    if (trailer.length < TRAILER_SIZE || trailer.readUInt32BE(0) !== RECORD_TRAILER) return null;
    const path = head.toString('utf8', HEADER_SIZE, HEADER_SIZE + h.pathLength);
    const note = head.toString('utf8', HEADER_SIZE + h.pathLength, HEADER_SIZE + varLen);
    const body = withBody ? head.subarray(HEADER_SIZE + varLen, HEADER_SIZE + varLen + h.bodyLength) : Buffer.alloc(0);
    return { header: h, record: { id: h.id, receivedAt: h.receivedAt, status: h.status, path, note, body } };
  }
}

export interface ReadOptions {
  /** Yield only records with id > afterId. */
  afterId?: number;
  /** Stop after this id (inclusive). */
  untilId?: number;
  /** Skip reading bodies (faster scans). */
  withBody?: boolean;
  /** Where the record after afterId starts, when the caller knows (it read up to there): reading
   *  starts there instead of stepping over every earlier record of the segment, which live
   *  processing would otherwise do once per batch. Checked against the record found there; a
   *  position that does not hold is ignored. */
  at?: ReadPosition;
}

/** Yields complete records in id order. */
export async function* readRecords(dir: string, opts: ReadOptions = {}): AsyncGenerator<EventRecord & { position: ReadPosition; size: number }> {
  const afterId = opts.afterId ?? 0;
  const untilId = opts.untilId ?? Number.MAX_SAFE_INTEGER;
  const segments = listSegments(dir);
  const start = opts.at ? await checkedStart(segments, opts.at, afterId) : null;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    const next = segments[i + 1];
    if (next && next.firstId <= afterId + 1) continue; // wholly before the start
    if (start && seg.firstId < start.segment) continue;
    const fh = await open(seg.path, 'r');
    try {
      const chunks = new SegmentChunks(fh, (await fh.stat()).size);
      const fromStart = start?.segment === seg.firstId;
      let offset = fromStart ? start.offset : 0;
      let skipping = !fromStart && seg.firstId <= afterId;
      for (;;) {
        // Records up to afterId are skipped by their header alone, read without a chunk behind it.
        const h = decodeHeaderOnly(await chunks.bytes(offset, HEADER_SIZE, skipping ? HEADER_SIZE : CHUNK_BYTES));
        if (h && h.id > untilId) return;
        skipping = !!h && h.id < afterId;
        const read = h && h.id <= afterId ? { header: h, record: null } : await chunks.record(offset, opts.withBody ?? true);
        if (!read) break;
        if (read.record) yield { ...read.record, position: { segment: seg.firstId, offset }, size: recordSize(read.header) };
        offset += recordSize(read.header);
      }
    } finally {
      await fh.close();
    }
  }
}

/** `at` if the record after `afterId` is there (or the next segment's start, when `at` is the end
 *  of its segment and that next segment begins with it); else null. */
async function checkedStart(segments: Array<{ firstId: number; path: string }>, at: ReadPosition, afterId: number): Promise<ReadPosition | null> {
  const i = segments.findIndex((s) => s.firstId === at.segment);
  if (i < 0) return null;
  const fh = await open(segments[i].path, 'r');
  try {
    const size = (await fh.stat()).size;
    const h = await readHeaderAt(fh, at.offset, size);
    if (h) return h.id === afterId + 1 ? at : null;
    const next = segments[i + 1];
    return at.offset === size && next?.firstId === afterId + 1 ? { segment: next.firstId, offset: 0 } : null;
  } finally {
    await fh.close();
  }
}

function decodeHeaderOnly(b: Buffer): RecordHeader | null {
  return b.length === HEADER_SIZE ? decodeHeader(b) : null;
}

/** One record by id (a scan from its segment's start). */
export async function readRecord(dir: string, id: number): Promise<EventRecord | undefined> {
  for await (const r of readRecords(dir, { afterId: id - 1, untilId: id })) return r;
  return undefined;
}
