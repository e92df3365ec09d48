/** madvise(MADV_DONTNEED) over [start, start + length), off the event loop: `error` 0 or the errno,
 *  and the process's file-backed RSS (kB, /proc/self/status RssFile; -1 if unreadable) read on the
 *  same thread right after the call. */
export function dropPages(start: bigint, length: bigint): Promise<{ error: number; fileBackedKb: number }>;
/** madvise(MADV_DONTNEED) over [start, start + length) on the calling thread: 0 or the errno. */
export function dropPagesNow(start: bigint, length: bigint): number;
