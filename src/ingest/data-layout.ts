// The data directory's layout: a marker file, <data dir>/layout.json, says which layout its derived
// stores are in. It is written before anything else when a new data directory is created (so a
// directory with stores and no marker was made by an earlier version) and when one is re-indexed.
//
//   {"layout": 2}                         current
//   {"layout": 2, "reindex": "wiping"}    a re-index is removing the old stores: not usable until
//                                         `npm run reindex` finishes (run it again if it was killed)
//   {"layout": 2, "reindex": "processing"} the stores are layout 2 and the log is being processed
//                                         into them: usable (processing resumes from its checkpoint)
//   no marker, no stores                  a new directory: layout 2
//   no marker, an event log or stores     layout 1 (every version before the marker)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCheckpoint } from './processor/checkpoint.ts';
import { listSegments } from './event-log/segments.ts';

/** The layout this version reads and writes. */
export const DATA_LAYOUT = 2;

export type ReindexPhase = 'wiping' | 'processing';

export interface LayoutMarker {
  layout: number;
  reindex?: ReindexPhase;
}

export type DataDirLayout =
  /** Nothing of a data directory in it (or no directory at all): layout 2 once marked. */
  | { kind: 'new' }
  | { kind: 'current'; reindex?: 'processing' }
  /** A re-index was stopped while it removed the old stores. */
  | { kind: 'reindex-interrupted' }
  /** Another layout: 1 (no marker) or whatever a marker from another version says. */
  | { kind: 'other'; layout: number };

/** What the service keeps in a data directory (the event log, the serving store, the embedded
 *  engine's tables, a follower's checkpoint): any of them without a marker is layout 1. */
export const DATA_DIR_ENTRIES = ['events', 'serving', 'clickhouse', 'follow-checkpoint.json'];

export const layoutMarkerFile = (dataDir: string): string => join(dataDir, 'layout.json');

/** A layout.json that cannot be read as a marker: one line for the user, not a stack trace. */
export class LayoutMarkerError extends Error {
  constructor(readonly file: string, problem: string) {
    super(`${file} is not a layout marker (expected {"layout": ${DATA_LAYOUT}}): ${problem}`);
    this.name = 'LayoutMarkerError';
  }
}

export function readLayoutMarker(dataDir: string): LayoutMarker | undefined {
  const file = layoutMarkerFile(dataDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new LayoutMarkerError(file, (e as Error).message);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LayoutMarkerError(file, 'not JSON');
  }
  const m = parsed as Partial<LayoutMarker> | null;
  if (!m || typeof m !== 'object' || !Number.isSafeInteger(m.layout) || (m.layout as number) < 1) throw new LayoutMarkerError(file, 'no positive whole "layout"');
  if (m.reindex !== undefined && m.reindex !== 'wiping' && m.reindex !== 'processing') throw new LayoutMarkerError(file, `unknown "reindex" phase ${JSON.stringify(m.reindex)}`);
  return { layout: m.layout as number, ...(m.reindex ? { reindex: m.reindex } : {}) };
}

/** Atomic and durable, as the processor's checkpoint (temp file, fsync, rename, directory fsync). */
export function writeLayoutMarker(dataDir: string, marker: LayoutMarker): void {
  writeCheckpoint(layoutMarkerFile(dataDir), marker as never);
}

/** Reads only: nothing in the directory is created or changed. */
export function detectDataDirLayout(dataDir: string): DataDirLayout {
  const marker = readLayoutMarker(dataDir);
  if (marker) {
    if (marker.layout !== DATA_LAYOUT) return { kind: 'other', layout: marker.layout };
    if (marker.reindex === 'wiping') return { kind: 'reindex-interrupted' };
    return marker.reindex ? { kind: 'current', reindex: marker.reindex } : { kind: 'current' };
  }
  const present = existsSync(dataDir) ? readdirSync(dataDir) : [];
  return present.some((e) => DATA_DIR_ENTRIES.includes(e)) ? { kind: 'other', layout: 1 } : { kind: 'new' };
}

/** Whether the directory has an event log of its own to re-index from. */
export function hasEventLog(dataDir: string): boolean {
  const dir = join(dataDir, 'events');
  return existsSync(dir) && listSegments(dir).length > 0;
}
