// What a compression stopped by a crash leaves (segment-compress.ts), removed at start-up by the
// process that owns the log: a temp file (the `.seg` is still the segment), or a `.seg` whose
// `.segz` is in place (readers take the `.segz`). Neither is read, so this frees disk only.
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CompressedSegment } from './compressed-segment.ts';
import { syncDir } from './segment-compress.ts';
import { compressedSegmentPath } from './segments.ts';

/** Removes leftovers of interrupted compressions; resolves with the names removed. */
export async function removeLeftovers(dir: string): Promise<string[]> {
  const names = new Set(readdirSync(dir));
  const removed: string[] = [];
  for (const n of names) {
    let leftover: string | undefined;
    const plain = /^(\d{16})\.seg$/.exec(n);
    if (/^\d{16}\.segz\.tmp$/.test(n)) leftover = n;
    // A `.segz` is named only once written and synced, but is checked all the same: should it be
    // incomplete, the `.seg` beside it is the one to keep.
    else if (plain && names.has(`${n}z`)) leftover = (await completeSegz(compressedSegmentPath(dir, Number(plain[1])))) ? n : `${n}z`;
    if (!leftover) continue;
    await rm(join(dir, leftover), { force: true });
    removed.push(leftover);
  }
  if (removed.length > 0) await syncDir(dir);
  return removed;
}

async function completeSegz(path: string): Promise<boolean> {
  try {
    await (await CompressedSegment.open(path)).close();
    return true;
  } catch {
    return false;
  }
}
