// The optional addon native/mapped-pages, loaded once: the calls that give this process's memory
// back to the kernel (mapped file pages: src/serving/resident.ts; glibc's heap: below). Without a
// compiler the addon is missing and each call is a no-op.
import { createRequire } from 'node:module';

/** madvise(MADV_DONTNEED) off the event loop: its errno and RssFile (kB) right after it; an addon
 *  built before it returned the RSS (a checkout whose install did not rebuild it) answers the errno. */
export type DropPages = (start: bigint, length: bigint) => Promise<{ error: number; fileBackedKb: number } | number>;

/** madvise on the calling thread: 0 or its errno (missing from an addon built before it). */
export type DropPagesNow = (start: bigint, length: bigint) => number;

interface Addon {
  dropPages?: DropPages;
  dropPagesNow?: DropPagesNow;
  limitMallocArenas?: (n: number) => boolean;
  trimMalloc?: () => boolean;
}

function loadAddon(): Addon {
  try {
    return createRequire(import.meta.url)('mapped-pages') as Addon;
  } catch {
    return {};
  }
}

export const processMemory: Addon = loadAddon();

/** glibc's arenas capped at `n`, before the engine's and the decode threads start. glibc allows 8
 *  arenas a core, and memory a thread frees stays with its arena, reused only by the threads that
 *  share it: with 2 arenas the 1M-tx import's peak anonymous RSS was 1,266 MB against 1,349
 *  (MALLOC_ARENA_MAX=2, the same rate). An environment's MALLOC_ARENA_MAX is left as it is. */
export function limitMallocArenas(n = 2): boolean {
  if (process.env.MALLOC_ARENA_MAX) return false;
  return processMemory.limitMallocArenas?.(n) ?? false;
}

/** glibc's free pages inside its arenas given back (malloc_trim(0)): after a batch is stored. */
export function trimMalloc(): boolean {
  return processMemory.trimMalloc?.() ?? false;
}
