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

async function readRecordAt(fh: FileHandle, offset: number, h: RecordHeader, withBody: boolean): Promise<EventRecord> {
  const varLen = h.pathLength + h.noteLength + (withBody ? h.bodyLength : 0);
  const buf = Buffer.allocUnsafe(varLen);
  if (varLen > 0) await fh.read(buf, 0, varLen, offset + HEADER_SIZE);
  const path = buf.toString('utf8', 0, h.pathLength);
  const note = buf.toString('utf8', h.pathLength, h.pathLength + h.noteLength);
  const body = withBody ? buf.subarray(h.pathLength + h.noteLength) : Buffer.alloc(0);
  return { id: h.id, receivedAt: h.receivedAt, status: h.status, path, note, body };
}

export interface ReadOptions {
  /** Yield only records with id > afterId. */
  afterId?: number;
  /** Stop after this id (inclusive). */
  untilId?: number;
  /** Skip reading bodies (faster scans). */
  withBody?: boolean;
}

/** Yields complete records in id order. */
export async function* readRecords(dir: string, opts: ReadOptions = {}): AsyncGenerator<EventRecord & { position: ReadPosition; size: number }> {
  const afterId = opts.afterId ?? 0;
  const untilId = opts.untilId ?? Number.MAX_SAFE_INTEGER;
  const segments = listSegments(dir);
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    const next = segments[i + 1];
    if (next && next.firstId <= afterId + 1) continue; // wholly before the start
    const fh = await open(seg.path, 'r');
    try {
      const size = (await fh.stat()).size;
      let offset = 0;
      for (;;) {
        const h = await readHeaderAt(fh, offset, size);
        if (!h) break;
        if (h.id > untilId) return;
        if (h.id > afterId) {
          const rec = await readRecordAt(fh, offset, h, opts.withBody ?? true);
          yield { ...rec, position: { segment: seg.firstId, offset }, size: recordSize(h) };
        }
        offset += recordSize(h);
      }
    } finally {
      await fh.close();
    }
  }
}

/** One record by id (a scan from its segment's start). */
export async function readRecord(dir: string, id: number): Promise<EventRecord | undefined> {
  for await (const r of readRecords(dir, { afterId: id - 1, untilId: id })) return r;
  return undefined;
}
