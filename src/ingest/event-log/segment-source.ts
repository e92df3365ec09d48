// A segment to read records from, in either form (`.seg` or `.segz`), addressed by the offsets the
// records have in the `.seg`, and the reading of one record at an offset.
import { dirname } from 'node:path';
import { CompressedSegment } from './compressed-segment.ts';
import { PlainSegment } from './plain-segment.ts';
import { decodeHeader, HEADER_SIZE, recordSize, RECORD_TRAILER, TRAILER_SIZE, type EventRecord, type RecordHeader } from './record.ts';
import { compressedSegmentPath, type SegmentFile } from './segments.ts';

export interface SegmentSource {
  /** Bytes of records, as a `.seg` (a compressed segment: the size its `.seg` had). */
  readonly size: number;
  /** Up to `length` bytes at `offset` (fewer at the end), as a view on a fresh shared buffer;
   *  `ahead`: how much a plain segment reads at once. */
  bytes(offset: number, length: number, ahead?: number): Promise<Buffer<ArrayBufferLike>>;
  /** Where to start reading to reach record `id` soonest. */
  startFor(id: number): number;
  close(): Promise<void>;
}

/**
 * Opens a listed segment. A `.seg` listed a moment ago may have been replaced by its compressed
 * form since (compactor.ts): then the `.segz` is read, at the same offsets. An open `.seg` keeps
 * reading after its name is removed.
 */
export async function openSegmentSource(seg: SegmentFile): Promise<SegmentSource> {
  if (seg.compressed) return CompressedSegment.open(seg.path);
  try {
    return await PlainSegment.open(seg.path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return CompressedSegment.open(compressedSegmentPath(dirname(seg.path), seg.firstId));
  }
}

export interface ReadRecord {
  header: RecordHeader;
  record: EventRecord;
}

/** The record at `offset`, or null at the end of the segment or at an incomplete record. */
export async function recordAt(src: SegmentSource, offset: number, withBody: boolean): Promise<ReadRecord | null> {
  const h = await headerAt(src, offset);
  if (!h) return null;
  const varLen = h.pathLength + h.noteLength;
  // Without bodies (scans), only the header, path, note and trailer are read.
  const head = await src.bytes(offset, withBody ? recordSize(h) : HEADER_SIZE + varLen);
  if (head.length < (withBody ? recordSize(h) : HEADER_SIZE + varLen)) return null;
  const trailer = withBody ? head.subarray(head.length - TRAILER_SIZE) : await src.bytes(offset + recordSize(h) - TRAILER_SIZE, TRAILER_SIZE);
  if (trailer.length < TRAILER_SIZE || trailer.readUInt32BE(0) !== RECORD_TRAILER) return null;
  const path = head.toString('utf8', HEADER_SIZE, HEADER_SIZE + h.pathLength);
  const note = head.toString('utf8', HEADER_SIZE + h.pathLength, HEADER_SIZE + varLen);
  const body = withBody ? head.subarray(HEADER_SIZE + varLen, HEADER_SIZE + varLen + h.bodyLength) : Buffer.alloc(0);
  return { header: h, record: { id: h.id, receivedAt: h.receivedAt, status: h.status, path, note, body } };
}

/** The complete record at `offset` as its exact bytes, or null at the end or an incomplete record. */
export async function recordBytesAt(src: SegmentSource, offset: number): Promise<{ header: RecordHeader; bytes: Buffer<ArrayBufferLike> } | null> {
  const h = await headerAt(src, offset);
  if (!h) return null;
  const bytes = await src.bytes(offset, recordSize(h));
  if (bytes.length < recordSize(h) || bytes.readUInt32BE(bytes.length - TRAILER_SIZE) !== RECORD_TRAILER) return null;
  return { header: h, bytes };
}

/** The header at `offset` of a record that fits in the segment, or null. */
async function headerAt(src: SegmentSource, offset: number): Promise<RecordHeader | null> {
  if (offset + HEADER_SIZE > src.size) return null;
  const h = decodeHeader(await src.bytes(offset, HEADER_SIZE));
  return h && offset + recordSize(h) <= src.size ? h : null;
}
