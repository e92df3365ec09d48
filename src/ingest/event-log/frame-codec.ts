// Compression of one frame of a compressed segment: brotli, quality 1, 4 MiB window. Measured on a
// generated 100k-tx log in 1 MiB frames (bench/ingest/event-log-compress.ts): 17% of the input at
// ~2.8 ms of CPU per MB, inflated at ~2 ms per MB; quality 3 keeps 16% at 2.5× the CPU, gzip 1 keeps
// 28% at 3×. Node 20 has no zstd.
//
// Both directions use zlib's async API, which runs on the libuv threadpool (shared with chdb) in
// steps that each fill one output chunk: a step compresses ~0.4 MB or inflates 256 KiB, so a
// query or insert waits for at most ~1 ms of ours.
import { brotliCompress, constants, createBrotliDecompress, crc32 } from 'node:zlib';

const COMPRESS_OUTPUT_CHUNK = 64 * 1024;
const INFLATE_OUTPUT_CHUNK = 256 * 1024;

export function compressFrame(records: Buffer): Promise<Buffer> {
  const params = {
    [constants.BROTLI_PARAM_QUALITY]: 1,
    [constants.BROTLI_PARAM_LGWIN]: 22,
    [constants.BROTLI_PARAM_SIZE_HINT]: records.length,
  };
  return new Promise((resolve, reject) => brotliCompress(records, { params, chunkSize: COMPRESS_OUTPUT_CHUNK }, (err, out) => (err ? reject(err) : resolve(out))));
}

/**
 * Inflates a frame into a fresh SharedArrayBuffer of its logical length (record bodies are handed
 * to the decode workers as views on it, without a copy), checking its length and crc32.
 */
export function inflateFrame(compressed: Buffer, logicalLength: number, crc: number, what: string): Promise<Buffer> {
  const out = Buffer.from(new SharedArrayBuffer(logicalLength));
  return new Promise((resolve, reject) => {
    const z = createBrotliDecompress({ chunkSize: INFLATE_OUTPUT_CHUNK });
    let at = 0;
    const fail = (why: string) => reject(new Error(`${what}: ${why}`));
    z.on('data', (chunk: Buffer) => {
      if (at + chunk.length > logicalLength) return z.destroy(new Error('longer than its index says'));
      out.set(chunk, at);
      at += chunk.length;
    });
    z.on('error', (e) => fail(e.message));
    z.on('end', () => {
      if (at !== logicalLength) fail(`inflated to ${at} bytes, its index says ${logicalLength}`);
      else if (crc32(out) !== crc) fail('checksum mismatch');
      else resolve(out);
    });
    z.end(compressed);
  });
}
