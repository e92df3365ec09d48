// Reads of a `.segz` file at the offsets its records had in the `.seg`: the frame holding an offset
// is read and inflated whole (records never straddle frames), and kept until a read leaves it.
import { open, type FileHandle } from 'node:fs/promises';
import { inflateFrame } from './frame-codec.ts';
import type { SegmentSource } from './segment-source.ts';
import { frameAt, frameOfId, readSegzIndex, type SegzIndex } from './segz-format.ts';

export class CompressedSegment implements SegmentSource {
  private frame: Buffer<ArrayBufferLike> = Buffer.alloc(0);
  private frameIndex = -1;

  private constructor(
    private readonly fh: FileHandle,
    private readonly path: string,
    readonly index: SegzIndex,
  ) {}

  static async open(path: string): Promise<CompressedSegment> {
    const fh = await open(path, 'r');
    try {
      return new CompressedSegment(fh, path, await readSegzIndex(fh, path));
    } catch (e) {
      await fh.close();
      throw e;
    }
  }

  get size(): number {
    return this.index.logicalSize;
  }

  /** Up to `length` bytes at `offset`, within the frame that holds it (a view on that frame). */
  async bytes(offset: number, length: number): Promise<Buffer<ArrayBufferLike>> {
    const frames = this.index.frames;
    if (offset >= this.size || frames.length === 0) return Buffer.alloc(0);
    const i = frameAt(frames, offset);
    if (i !== this.frameIndex) {
      const f = frames[i];
      const compressed = Buffer.alloc(f.compressedLength);
      const { bytesRead } = await this.fh.read(compressed, 0, f.compressedLength, f.fileOffset);
      if (bytesRead !== f.compressedLength) throw new Error(`${this.path}: frame ${i} is cut short`);
      this.frame = await inflateFrame(compressed, f.logicalLength, f.crc, `${this.path} frame ${i}`);
      this.frameIndex = i;
    }
    const from = offset - frames[i].logicalOffset;
    return this.frame.subarray(from, Math.min(from + length, this.frame.length));
  }

  /** The start of the frame holding record `id`: reading one record inflates one frame. */
  startFor(id: number): number {
    const frames = this.index.frames;
    return frames.length === 0 ? 0 : frames[frameOfId(frames, id)].logicalOffset;
  }

  close(): Promise<void> {
    return this.fh.close();
  }
}
