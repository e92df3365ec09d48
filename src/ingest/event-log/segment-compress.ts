// Rewrites one sealed segment in its compressed form (segz-format.ts): `<first id>.segz.tmp` is
// written and synced, renamed to `.segz`, the directory synced, and only then is the `.seg`
// removed. Whatever step a crash stops at, every record is readable exactly once: before the
// rename the `.seg` is the segment (the temp file is ignored and removed at the next start), after
// it the `.segz` is (readers prefer it, and the next start removes the `.seg`; leftovers.ts).
import { rm, open, rename, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { compressFrame } from './frame-codec.ts';
import { PlainSegment } from './plain-segment.ts';
import { recordBytesAt } from './segment-source.ts';
import { compressedSegmentPath, compressedTempPath, segmentPath } from './segments.ts';
import { encodeSegzHeader, encodeSegzTail, SEGZ_HEADER_SIZE, type Frame } from './segz-format.ts';

/** Records per frame, by size: as many whole records as fit in 1 MiB (a larger record is a frame
 *  of its own). Reading one record inflates one frame (~2 ms); 4 MiB frames would save half a point
 *  of the ratio. */
export const FRAME_BYTES = 1024 * 1024;
/** Reads of the `.seg` while compressing: a few frames at a time. */
const READ_BYTES = 4 * 1024 * 1024;

/** The steps after which a test can stop the compression as a crash would. */
export type CompressStep = 'frame' | 'written' | 'renamed';

export class SimulatedCrash extends Error {}

/** The segment's records are not what a sealed segment holds; it is left as it is. */
export class SegmentShapeError extends Error {}

export interface CompressOptions {
  /** Id the segment's last record must have: the next segment's first id minus one. */
  lastId: number;
  /** Asked after each frame: true gives the compression up (its temp file is removed). */
  stopping?: () => boolean;
  /** Tests: leave the files as a crash right after this step would. */
  crashAfter?: CompressStep;
}

export interface Compressed {
  records: number;
  plainBytes: number;
  compressedBytes: number;
}

/** Compresses segment `firstId` of `dir`; null when given up. Throws, leaving the `.seg` as it
 *  was, if its records are not exactly `firstId`…`lastId`, whole, with nothing after them. */
export async function compressSegment(dir: string, firstId: number, opts: CompressOptions): Promise<Compressed | null> {
  const plain = segmentPath(dir, firstId);
  const temp = compressedTempPath(dir, firstId);
  const src = await PlainSegment.open(plain, READ_BYTES);
  let keepTemp = false;
  let out: FileHandle | undefined;
  let size = 0;
  try {
    out = await open(temp, 'w');
    const written = await writeFrames(src, out, firstId, opts);
    if (written === null) return null;
    await out.sync();
    size = written;
    keepTemp = true;
  } catch (e) {
    keepTemp = e instanceof SimulatedCrash;
    throw e;
  } finally {
    await out?.close();
    await src.close();
    if (!keepTemp) await rm(temp, { force: true });
  }
  crashPoint(opts, 'written');
  await rename(temp, compressedSegmentPath(dir, firstId));
  await syncDir(dir);
  crashPoint(opts, 'renamed');
  await rm(plain);
  await syncDir(dir);
  return { records: opts.lastId - firstId + 1, plainBytes: src.size, compressedBytes: size };
}

/** Header, frames, index and footer; the file's size, or null when given up. */
async function writeFrames(src: PlainSegment, out: FileHandle, firstId: number, opts: CompressOptions): Promise<number | null> {
  await writeAt(out, encodeSegzHeader(firstId), 0);
  const frames: Frame[] = [];
  let fileOffset = SEGZ_HEADER_SIZE;
  // Where the records compressed so far end, and the id after them.
  let end = 0;
  let nextId = firstId;
  for await (const f of recordFrames(src, firstId)) {
    // The frame's records, contiguous in the `.seg`: a view on the chunk read (re-read when the
    // frame straddles two chunks), so nothing is copied.
    const logical = await src.bytes(f.logicalOffset, f.length);
    if (logical.length !== f.length) throw new Error(`segment ${firstId}: short read at ${f.logicalOffset}`);
    const compressed = await compressFrame(logical as Buffer);
    await writeAt(out, compressed, fileOffset);
    frames.push({ firstId: f.firstId, logicalOffset: f.logicalOffset, fileOffset, logicalLength: f.length, compressedLength: compressed.length, crc: crc32(logical) });
    fileOffset += compressed.length;
    end = f.logicalOffset + f.length;
    nextId = f.firstId + f.records;
    crashPoint(opts, 'frame');
    if (opts.stopping?.()) return null;
  }
  if (end !== src.size) throw new SegmentShapeError(`segment ${firstId}: ${src.size - end} bytes after its last whole record`);
  if (nextId - 1 !== opts.lastId) throw new SegmentShapeError(`segment ${firstId}: its last record is ${nextId - 1}, the next segment starts at ${opts.lastId + 1}`);
  const tail = encodeSegzTail({ lastId: opts.lastId, logicalSize: end, frames }, fileOffset);
  await writeAt(out, tail, fileOffset);
  return fileOffset + tail.length;
}

interface RecordFrame {
  firstId: number;
  logicalOffset: number;
  records: number;
  length: number;
}

/** The segment's whole records in frames: as many as fit in FRAME_BYTES, a larger one alone. */
async function* recordFrames(src: PlainSegment, firstId: number): AsyncGenerator<RecordFrame> {
  let offset = 0;
  let id = firstId;
  let frame: RecordFrame = { firstId, logicalOffset: 0, records: 0, length: 0 };
  for (;;) {
    const r = await recordBytesAt(src, offset);
    if (r && r.header.id !== id) throw new SegmentShapeError(`segment ${firstId}: record ${r.header.id} where ${id} was expected`);
    if (frame.length > 0 && (!r || frame.length + r.bytes.length > FRAME_BYTES)) {
      yield frame;
      frame = { firstId: id, logicalOffset: offset, records: 0, length: 0 };
    }
    if (!r) return;
    frame.records++;
    frame.length += r.bytes.length;
    offset += r.bytes.length;
    id++;
  }
}

async function writeAt(fh: FileHandle, buf: Buffer, position: number): Promise<void> {
  for (let done = 0; done < buf.length; ) {
    const { bytesWritten } = await fh.write(buf, done, buf.length - done, position + done);
    done += bytesWritten;
  }
}

function crashPoint(opts: CompressOptions, step: CompressStep): void {
  if (opts.crashAfter === step) throw new SimulatedCrash(`simulated crash after step "${step}"`);
}

export async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
