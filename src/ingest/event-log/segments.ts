// Segment files of the event log, read and written in id order:
//   <dir>/<first id, 16 digits>.seg    records as appended (the newest one is being written)
//   <dir>/<first id, 16 digits>.segz   the same records, compressed once processed (segz-format.ts)
// A compressed segment is written under a temp name (`.segz.tmp`) and renamed, and only then is its
// `.seg` removed: for a moment (or after a crash there) both exist, with the same records.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface SegmentFile {
  firstId: number;
  path: string;
  compressed: boolean;
}

const name = (firstId: number) => String(firstId).padStart(16, '0');

export function segmentPath(dir: string, firstId: number): string {
  return join(dir, `${name(firstId)}.seg`);
}

export function compressedSegmentPath(dir: string, firstId: number): string {
  return join(dir, `${name(firstId)}.segz`);
}

export const compressedTempPath = (dir: string, firstId: number): string => `${compressedSegmentPath(dir, firstId)}.tmp`;

const SEGMENT_NAME = /^(\d{16})\.seg(z?)$/;

/** One file per segment, in id order; where both forms exist, the compressed one (it is complete:
 *  it got its name only once written and synced, while its `.seg` is about to be removed). */
export function listSegments(dir: string): SegmentFile[] {
  const byId = new Map<number, SegmentFile>();
  for (const n of readdirSync(dir)) {
    const m = SEGMENT_NAME.exec(n);
    if (!m) continue;
    const firstId = Number(m[1]);
    const compressed = m[2] === 'z';
    if (!compressed && byId.has(firstId)) continue;
    byId.set(firstId, { firstId, path: join(dir, n), compressed });
  }
  return [...byId.values()].sort((a, b) => a.firstId - b.firstId);
}

/** Id of the last record of every segment but the newest: the next one starts right after it. */
export function lastIdOf(segments: SegmentFile[], i: number): number | undefined {
  const next = segments[i + 1];
  return next ? next.firstId - 1 : undefined;
}
