// On-disk form of a compressed segment (`.segz`): the records of a `.seg`, byte for byte, cut into
// frames of whole records, each frame compressed on its own, so one record is read by
// decompressing one frame:
//   header (16)  'SEVZ' | version u16 | codec u16 | first id u64
//   frames       one compressed stream each (frame-codec.ts)
//   index (32 per frame)  first id u64 | logical offset u64 | file offset u64 | crc32 of the frame's records u32 | 0 u32
//   footer (36)  index offset u64 | logical size u64 | last id u64 | frame count u32 | crc32 of the index u32 | 'SEVZ'
// Offsets into the records ("logical" offsets) are the offsets the records had in the `.seg`, so
// a read position taken before the compression still names the same record after it.
import type { FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

export const SEGZ_MAGIC = 0x5345565a; // 'SEVZ'
const VERSION = 1;
export const CODEC_BROTLI = 1;
export const SEGZ_HEADER_SIZE = 16;
const ENTRY_SIZE = 32;
const FOOTER_SIZE = 36;

export interface Frame {
  /** Id of the frame's first record. */
  firstId: number;
  logicalOffset: number;
  logicalLength: number;
  fileOffset: number;
  compressedLength: number;
  /** crc32 of the frame's records as they were in the `.seg`. */
  crc: number;
}

export interface SegzIndex {
  firstId: number;
  lastId: number;
  /** Size of the records as a `.seg`. */
  logicalSize: number;
  frames: Frame[];
}

export function encodeSegzHeader(firstId: number): Buffer {
  const h = Buffer.alloc(SEGZ_HEADER_SIZE);
  h.writeUInt32BE(SEGZ_MAGIC, 0);
  h.writeUInt16BE(VERSION, 4);
  h.writeUInt16BE(CODEC_BROTLI, 6);
  h.writeBigUInt64BE(BigInt(firstId), 8);
  return h;
}

/** Index and footer, written after the last frame (which ends at `indexOffset`). */
export function encodeSegzTail(index: Omit<SegzIndex, 'firstId'>, indexOffset: number): Buffer {
  const out = Buffer.alloc(index.frames.length * ENTRY_SIZE + FOOTER_SIZE);
  index.frames.forEach((f, i) => {
    const at = i * ENTRY_SIZE;
    out.writeBigUInt64BE(BigInt(f.firstId), at);
    out.writeBigUInt64BE(BigInt(f.logicalOffset), at + 8);
    out.writeBigUInt64BE(BigInt(f.fileOffset), at + 16);
    out.writeUInt32BE(f.crc >>> 0, at + 24);
  });
  const footer = index.frames.length * ENTRY_SIZE;
  out.writeBigUInt64BE(BigInt(indexOffset), footer);
  out.writeBigUInt64BE(BigInt(index.logicalSize), footer + 8);
  out.writeBigUInt64BE(BigInt(index.lastId), footer + 16);
  out.writeUInt32BE(index.frames.length, footer + 24);
  out.writeUInt32BE(crc32(out.subarray(0, footer)), footer + 28);
  out.writeUInt32BE(SEGZ_MAGIC, footer + 32);
  return out;
}

export class SegzFormatError extends Error {}

/** Reads and checks the header, index and footer of an open `.segz`. */
export async function readSegzIndex(fh: FileHandle, path: string): Promise<SegzIndex> {
  const bad = (why: string) => new SegzFormatError(`${path}: not a complete compressed segment (${why})`);
  const size = (await fh.stat()).size;
  if (size < SEGZ_HEADER_SIZE + FOOTER_SIZE) throw bad('too short');
  const header = await readAt(fh, 0, SEGZ_HEADER_SIZE);
  if (header.readUInt32BE(0) !== SEGZ_MAGIC || header.readUInt16BE(4) !== VERSION || header.readUInt16BE(6) !== CODEC_BROTLI) throw bad('header');
  const footer = await readAt(fh, size - FOOTER_SIZE, FOOTER_SIZE);
  if (footer.readUInt32BE(32) !== SEGZ_MAGIC) throw bad('footer');
  const indexOffset = Number(footer.readBigUInt64BE(0));
  const count = footer.readUInt32BE(24);
  if (indexOffset + count * ENTRY_SIZE + FOOTER_SIZE !== size || indexOffset < SEGZ_HEADER_SIZE) throw bad('index size');
  const entries = await readAt(fh, indexOffset, count * ENTRY_SIZE);
  if (crc32(entries) !== footer.readUInt32BE(28)) throw bad('index checksum');
  const logicalSize = Number(footer.readBigUInt64BE(8));
  const frames: Frame[] = [];
  for (let i = 0; i < count; i++) {
    const at = i * ENTRY_SIZE;
    frames.push({
      firstId: Number(entries.readBigUInt64BE(at)),
      logicalOffset: Number(entries.readBigUInt64BE(at + 8)),
      fileOffset: Number(entries.readBigUInt64BE(at + 16)),
      crc: entries.readUInt32BE(at + 24),
      logicalLength: 0,
      compressedLength: 0,
    });
  }
  // Each frame ends where the next begins; the last at the index (file) and the logical size.
  frames.forEach((f, i) => {
    f.logicalLength = (frames[i + 1]?.logicalOffset ?? logicalSize) - f.logicalOffset;
    f.compressedLength = (frames[i + 1]?.fileOffset ?? indexOffset) - f.fileOffset;
    if (f.logicalLength <= 0 || f.compressedLength <= 0) throw bad(`frame ${i}`);
  });
  return { firstId: Number(header.readBigUInt64BE(8)), lastId: Number(footer.readBigUInt64BE(16)), logicalSize, frames };
}

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  if (bytesRead !== length) throw new SegzFormatError(`short read at ${position}`);
  return buf;
}

/** Index of the frame holding logical offset `offset` (the last frame starting at or before it). */
export const frameAt = (frames: Frame[], offset: number): number => lastAtOrBefore(frames, (f) => f.logicalOffset, offset);

/** Index of the frame holding record `id` (the last frame whose first id is at or before it). */
export const frameOfId = (frames: Frame[], id: number): number => lastAtOrBefore(frames, (f) => f.firstId, id);

/** Binary search over frames in order of `key`; 0 when every frame is after `value`. */
function lastAtOrBefore(frames: Frame[], key: (f: Frame) => number, value: number): number {
  let lo = 0;
  let hi = frames.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (key(frames[mid]) <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
