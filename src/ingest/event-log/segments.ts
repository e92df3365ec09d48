// Segment files of the event log: <dir>/<first id, 16 digits>.seg, read and written in id order.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface SegmentFile {
  firstId: number;
  path: string;
}

export function segmentPath(dir: string, firstId: number): string {
  return join(dir, `${String(firstId).padStart(16, '0')}.seg`);
}

export function listSegments(dir: string): SegmentFile[] {
  return readdirSync(dir)
    .filter((n) => /^\d{16}\.seg$/.test(n))
    .map((n) => ({ firstId: Number(n.slice(0, 16)), path: join(dir, n) }))
    .sort((a, b) => a.firstId - b.firstId);
}
