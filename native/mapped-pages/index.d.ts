/** madvise(MADV_DONTNEED) over [start, start + length), off the event loop: 0, or the errno. */
export function dropPages(start: bigint, length: bigint): Promise<number>;
