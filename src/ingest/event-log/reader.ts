// Sequential reading of the event log, from any id on, across segments of either form (plain or
// compressed; segment-source.ts).
import type { FileHandle } from 'node:fs/promises';
import { decodeHeader, HEADER_SIZE, recordSize, RECORD_TRAILER, TRAILER_SIZE, type EventRecord, type RecordHeader } from './record.ts';
import { listSegments, type SegmentFile } from './segments.ts';
import { CHUNK_BYTES } from './plain-segment.ts';
import { openSegmentSource, recordAt } from './segment-source.ts';

export interface ReadPosition {
  /** First id of the segment. */
  segment: number;
  /** Byte offset of the next record in the segment's `.seg` (the same once it is compressed). */
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
    const src = await openSegmentSource(seg);
    try {
      const fromStart = start?.segment === seg.firstId;
      let skipping = !fromStart && seg.firstId <= afterId;
      // A compressed segment starts at the frame holding the first record wanted.
      let offset = fromStart ? start.offset : skipping ? src.startFor(afterId + 1) : 0;
      for (;;) {
        // Records up to afterId are skipped by their header alone, read without a chunk behind it.
        const h = decodeHeaderOnly(await src.bytes(offset, HEADER_SIZE, skipping ? HEADER_SIZE : CHUNK_BYTES));
        if (h && h.id > untilId) return;
        skipping = !!h && h.id < afterId;
        const read = h && h.id <= afterId ? { header: h, record: null } : await recordAt(src, offset, opts.withBody ?? true);
        if (!read) break;
        if (read.record) yield { ...read.record, position: { segment: seg.firstId, offset }, size: recordSize(read.header) };
        offset += recordSize(read.header);
      }
    } finally {
      await src.close();
    }
  }
}

/** `at` if the record after `afterId` is there (or the next segment's start, when `at` is the end
 *  of its segment and that next segment begins with it); else null. */
async function checkedStart(segments: SegmentFile[], at: ReadPosition, afterId: number): Promise<ReadPosition | null> {
  const i = segments.findIndex((s) => s.firstId === at.segment);
  if (i < 0) return null;
  const src = await openSegmentSource(segments[i]);
  try {
    const found = await recordAt(src, at.offset, false);
    if (found) return found.header.id === afterId + 1 ? at : null;
    const next = segments[i + 1];
    return at.offset === src.size && next?.firstId === afterId + 1 ? { segment: next.firstId, offset: 0 } : null;
  } finally {
    await src.close();
  }
}

function decodeHeaderOnly(b: Buffer): RecordHeader | null {
  return b.length === HEADER_SIZE ? decodeHeader(b) : null;
}

/** One record by id (a scan from its segment's start; in a compressed segment, from its frame's). */
export async function readRecord(dir: string, id: number): Promise<EventRecord | undefined> {
  for await (const r of readRecords(dir, { afterId: id - 1, untilId: id })) return r;
  return undefined;
}
