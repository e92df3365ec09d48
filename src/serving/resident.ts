// A page of the serving store read through its map stays counted in this process's RSS until the
// kernel wants the memory back; over hours of serving, RSS would grow by every page ever read or
// written around (the store file, in the page cache). So once the process's file-backed RSS has
// grown by a budget since the last release, the map's page-table entries are dropped (madvise
// MADV_DONTNEED, native/mapped-pages): the pages stay in the page cache, a later read maps them
// again with a minor fault, and RSS stays within the budget of what it was after start-up.
import { readFileSync, realpathSync } from 'node:fs';
import { processMemory } from '../runtime/process-memory.ts';

const { dropPages = null, dropPagesNow = null } = processMemory;

/** Whether this process can give back mapped pages (the native addon loaded). */
export const canReleasePages = dropPages !== null;

/** How often the file-backed RSS is looked at (one read of /proc/self/status). */
const CHECK_MS = 1000;

/** One mapping's line of /proc/<pid>/maps (also the header of each mapping in smaps): its range and
 *  the mapped file's path ('' for anonymous memory); null for any other line. */
function mappingLine(line: string): { start: bigint; end: bigint; path: string } | null {
  const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+(?:\s+(.*))?$/.exec(line);
  return m ? { start: BigInt(`0x${m[1]}`), end: BigInt(`0x${m[2]}`), path: (m[3] ?? '').trim() } : null;
}

/** [start, length] of each mapping of `file` in a /proc/<pid>/maps text. */
export function mappingsOf(file: string, maps: string): Array<[bigint, bigint]> {
  const out: Array<[bigint, bigint]> = [];
  for (const line of maps.split('\n')) {
    const m = mappingLine(line);
    if (m && m.path === file) out.push([m.start, m.end - m.start]);
  }
  return out;
}

/** KB resident per mapped file that `isFile` picks, from a /proc/<pid>/smaps text. */
export function residentKbByFile(smaps: string, isFile: (path: string) => boolean): Map<string, number> {
  const out = new Map<string, number>();
  let path: string | null = null;
  for (const line of smaps.split('\n')) {
    const m = mappingLine(line);
    if (m) {
      path = isFile(m.path) ? m.path : null;
      if (path !== null && !out.has(path)) out.set(path, 0);
      continue;
    }
    const rss = path === null ? null : /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out.set(path!, out.get(path!)! + Number(rss[1]));
  }
  return out;
}

/** Drops this process's mapped pages of `file`: how many mappings of it were found, and the
 *  process's file-backed RSS (MB) right after the last drop (null if none was made). */
export async function releaseMappedPages(file: string): Promise<{ mappings: number; fileBackedMb: number | null }> {
  if (!dropPages) return { mappings: 0, fileBackedMb: null };
  let path: string;
  try {
    path = realpathSync(file);
  } catch {
    return { mappings: 0, fileBackedMb: null }; // removed after its store was closed: nothing is mapped
  }
  const ranges = mappedRangesOf(path);
  let after: number | null = null;
  for (const [start, length] of ranges) {
    const result = await dropPages(start, length);
    const { error, fileBackedKb } = typeof result === 'number' ? { error: result, fileBackedKb: -1 } : result;
    // ENOMEM: the map went away between the read of /proc and the call (the store was closed).
    if (error !== 0 && error !== 12) throw new Error(`madvise(MADV_DONTNEED) on ${file}: errno ${error}`);
    after = fileBackedKb >= 0 ? fileBackedKb / 1024 : null;
  }
  return { mappings: ranges.length, fileBackedMb: after };
}

/** [start, length] of each of this process's mappings of `path` (a real path). */
const mappedRangesOf = (path: string): Array<[bigint, bigint]> => mappingsOf(path, readFileSync('/proc/self/maps', 'utf8'));

/** This process's file-backed resident memory, MB. */
export function fileBackedMb(): number {
  const m = /^RssFile:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** Releases `file`'s mapped pages whenever file-backed RSS has grown by `budgetMb` since the last
 *  release (0: never); returns the stop function. The next budget counts from the RSS read right
 *  after the pages were dropped, not when the event loop next got to it: during a 1M-tx import
 *  that came up to 1.4 s later, after a batch's write had mapped ~500 MB again, and a budget
 *  counted from there kept those pages (the store's resident share reached 1 GB, not 128 MB). */
export function releaseOverBudget(file: string, budgetMb: number, onRelease: () => void = () => {}): () => void {
  if (!dropPages || budgetMb <= 0) return () => {};
  let base = fileBackedMb();
  let running = false;
  const timer = setInterval(() => {
    if (running || fileBackedMb() - base < budgetMb) return;
    running = true;
    releaseMappedPages(file)
      .then(({ fileBackedMb: after }) => {
        base = after ?? fileBackedMb();
        onRelease();
      })
      .catch((e: unknown) => {
        base = fileBackedMb();
        console.error(`serving store: ${(e as Error).message}`);
      })
      .finally(() => {
        running = false;
      });
  }, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** How many calls of a write's releaser pass between two reads of RssFile. */
const CALLS_PER_CHECK = 128;

/**
 * A check for a long write to call per item it writes: once this process's file-backed RSS has grown
 * by `budgetMb` since the last drop, `file`'s mapped pages are dropped there and then, on the
 * writer's thread. Why inside the write, not only between batches: each read fault on a mapped file
 * maps the neighbouring pages that are in the page cache too (the kernel's fault-around, 64 KB;
 * madvise(MADV_RANDOM) does not turn it off), so a batch that reads ~20,000 random leaf pages of a
 * 1.4 GB store mapped ~1.1 GB of it before its commit (1M-tx import). The pages a write drops and
 * then needs again (the B-trees' branch pages, a leaf it goes back to) fault in again from the page
 * cache, and a dirty page dropped from a shared map stays dirty in the page cache.
 */
export function writePageReleaser(file: string, budgetMb: number): () => void {
  if (!dropPagesNow || budgetMb <= 0) return () => {};
  const drop = dropPagesNow;
  let ranges: Array<[bigint, bigint]> | null = null;
  let base = fileBackedMb();
  let calls = 0;
  return () => {
    if (++calls % CALLS_PER_CHECK !== 0 || fileBackedMb() - base < budgetMb) return;
    // The store maps its file once, for its life (store.ts): its range is read once.
    ranges ??= mappedRangesOf(realpathSync(file));
    for (const [start, length] of ranges) drop(start, length);
    base = fileBackedMb();
  };
}
