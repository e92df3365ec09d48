// Blocks in the serving store: by index block hash, block hash and height, each found through a
// small key to the block's log id, and its record (block-record.ts) read from there.
import type { ServingStore } from './store.ts';
import type { BlockDoc } from './docs.ts';
import { hashBytes, hashOfBytes, readBlockRecord } from './block-record.ts';
import { keyWith, readU32, u32Key } from './bytes.ts';
import { pidOf } from './changes.ts';

/** The log id that brought the block with this index block hash. */
export function blockLogId(s: ServingStore, indexBlockHash: string): number | undefined {
  const b = s.blockIndex.getBinaryFast(hashBytes(indexBlockHash));
  return b ? readU32(b) : undefined;
}

export function blockDocAt(s: ServingStore, logId: number): BlockDoc | undefined {
  const b = s.blocks.getBinaryFast(logId);
  return b ? readBlockRecord(b, pidOf(logId, 0)) : undefined;
}

/** The block's record bytes (valid until the next read of the store: lmdb reuses the buffer). */
export function blockRecordOf(s: ServingStore, indexBlockHash: string): Uint8Array | undefined {
  const logId = blockLogId(s, indexBlockHash);
  return logId === undefined ? undefined : s.blocks.getBinaryFast(logId);
}

export function blockDocOf(s: ServingStore, indexBlockHash: string): BlockDoc | undefined {
  const logId = blockLogId(s, indexBlockHash);
  return logId === undefined ? undefined : blockDocAt(s, logId);
}

/** Index block hashes of the blocks with this block hash. */
export function* indexHashesOfBlockHash(s: ServingStore, blockHash: string): Generator<string> {
  const prefix = hashBytes(blockHash);
  for (const { value } of s.blockHashes.getRange({ start: keyWith(prefix, 0), end: keyWith(prefix, 0xffff_ffff), inclusiveEnd: true })) yield hashOfBytes(value);
}

/** Index block hashes of the blocks at this height. */
export function* indexHashesAt(s: ServingStore, height: number): Generator<string> {
  for (const [ibh] of blocksAt(s, height)) yield ibh;
}

/** The blocks at this height as [index block hash, log id] (a heights key ends with its block's log id). */
export function* blocksAt(s: ServingStore, height: number): Generator<[string, number]> {
  for (const { key, value } of s.heights.getRange({ start: u32Key(height, 0), end: u32Key(height, 0xffff_ffff), inclusiveEnd: true })) {
    yield [hashOfBytes(value), readU32(key as Uint8Array, 4)];
  }
}

/** The blocks at heights `from` down to `to` (inclusive), highest first, as [height, index block
 *  hash]: one cursor for a page of heights rather than a range read per height. */
export function* indexHashesDown(s: ServingStore, from: number, to: number): Generator<[number, string]> {
  for (const { key, value } of s.heights.getRange({ start: u32Key(from, 0xffff_ffff), end: u32Key(to, 0), reverse: true, inclusiveEnd: true })) {
    yield [readU32(key as Uint8Array), hashOfBytes(value)];
  }
}
