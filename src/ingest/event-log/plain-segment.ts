// Reads of a `.seg` file in large chunks: a few large reads instead of three small ones per record
// (each async read is a trip through the libuv threadpool, which chdb's queries and inserts fill).
import { open, type FileHandle } from 'node:fs/promises';
import type { SegmentSource } from './segment-source.ts';

/** Bytes read from a segment at a time. */
export const CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * Each chunk is a fresh SharedArrayBuffer, so a record body is a view that the decode workers
 * receive without a copy (a shared view is not cloned), and it stays valid for as long as anyone
 * holds it.
 */
export class PlainSegment implements SegmentSource {
  private chunk: Buffer<ArrayBufferLike> = Buffer.alloc(0);
  private chunkStart = 0;

  private constructor(
    private readonly fh: FileHandle,
    readonly size: number,
    private readonly chunkBytes: number,
  ) {}

  static async open(path: string, chunkBytes = CHUNK_BYTES): Promise<PlainSegment> {
    const fh = await open(path, 'r');
    try {
      return new PlainSegment(fh, (await fh.stat()).size, chunkBytes);
    } catch (e) {
      await fh.close();
      throw e;
    }
  }

  async bytes(offset: number, length: number, ahead = this.chunkBytes): Promise<Buffer<ArrayBufferLike>> {
    if (offset < this.chunkStart || offset + length > this.chunkStart + this.chunk.length) {
      const want = Math.max(0, Math.min(Math.max(ahead, length), this.size - offset));
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

  /** Records are found by scanning from the start. */
  startFor(): number {
    return 0;
  }

  close(): Promise<void> {
    return this.fh.close();
  }
}
