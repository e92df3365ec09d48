// The serving store is written through its memory map (LMDB's writemap: a batch's pages are not
// copied into a sorted dirty list first, which cost more than half of the store's commit time on a
// 1M-tx store). Its file is sparse, so a page first written when the disk is full cannot be given
// blocks, and the kernel answers the write with SIGBUS: the process dies instead of failing the
// batch. So a batch is refused, with an error naming the directory, while free space is below a
// margin far above what one batch needs new blocks for: the pages it adds to the file (~45 MB for
// an import batch on the 1M-tx log: 7.1 GB over ~160 batches). The pages it rewrites, far more on
// a large store, reuse freed pages, which have their blocks already.
import { statfsSync } from 'node:fs';
import { readStoreMinFreeMb } from '../config/tuning.ts';

export function freeMb(dir: string): number {
  const s = statfsSync(dir);
  return (s.bavail * s.bsize) / 2 ** 20;
}

/** Throws when the filesystem holding `dir` has less than STACKS_API_STORE_MIN_FREE_MB free. */
export function assertRoomToWrite(dir: string, minFreeMb = readStoreMinFreeMb(process.env)): void {
  const free = freeMb(dir);
  if (free < minFreeMb) {
    throw new Error(`only ${Math.floor(free)} MB free on the disk of ${dir} (STACKS_API_STORE_MIN_FREE_MB is ${minFreeMb}): free some space, and processing goes on after a restart`);
  }
}
