// Quarantine: an operator sets aside one accepted log entry whose rows the store refuses, so that
// processing can go on. Nothing is skipped without a record: the journal beside the log
// (quarantine.jsonl: id, path, reason, the store's error, when) gets the entry first, then the
// record's status byte is rewritten in place to Quarantined (durably). The processor never
// processes a Quarantined record; export writes it as a /_quarantined row and import restores it.
import { appendFileSync, closeSync, existsSync, fdatasyncSync, fsyncSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { readRecords } from './reader.ts';
import { RecordStatus, STATUS_OFFSET, type EventRecord } from './record.ts';
import { segmentPath } from './segments.ts';

export interface QuarantineEntry {
  /** Event-log id of the entry. */
  id: number;
  path: string;
  /** The operator's words. */
  reason: string;
  /** What the store said when it refused the entry's rows, if known. */
  error?: string;
  /** ISO time of the quarantine. */
  at: string;
}

export const quarantineJournal = (logDir: string): string => join(logDir, 'quarantine.jsonl');

/** Every quarantine recorded beside the log, oldest first. */
export function readQuarantine(logDir: string): QuarantineEntry[] {
  const file = quarantineJournal(logDir);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as QuarantineEntry);
}

/** Appends one line to the journal, durably. */
export function recordQuarantine(logDir: string, entry: QuarantineEntry): void {
  const file = quarantineJournal(logDir);
  appendFileSync(file, `${JSON.stringify(entry)}\n`);
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Size and time of the journal, to notice a new quarantine cheaply. */
export function journalStamp(logDir: string): string {
  try {
    const s = statSync(quarantineJournal(logDir));
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return '';
  }
}

type Located = EventRecord & { position: { segment: number; offset: number } };

/** The complete record `id` (without its body) and where it is, or undefined. */
export async function locateRecord(logDir: string, id: number): Promise<Located | undefined> {
  for await (const r of readRecords(logDir, { afterId: id - 1, untilId: id, withBody: false })) if (r.id === id) return r;
  return undefined;
}

/** The status byte of the record at `position` (one small read). Only an unprocessed record's
 *  status is asked for (the entry processing stopped at), and its segment is never compressed. */
export function statusAt(logDir: string, position: Located['position']): RecordStatus {
  const fd = openSync(segmentPath(logDir, position.segment), 'r');
  try {
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, position.offset + STATUS_OFFSET);
    return b[0] as RecordStatus;
  } finally {
    closeSync(fd);
  }
}

/** Records the quarantine of `record` and marks it in the log. Only an unprocessed record can be
 *  quarantined, and its segment is plain (only processed segments are compressed); one found in a
 *  compressed segment was processed since it was located, and is refused. */
export function quarantineRecord(logDir: string, record: Located, reason: string, error?: string): QuarantineEntry {
  const entry: QuarantineEntry = { id: record.id, path: record.path, reason, ...(error ? { error } : {}), at: new Date().toISOString() };
  const fd = openPlainSegment(logDir, record);
  try {
    recordQuarantine(logDir, entry);
    writeSync(fd, Buffer.from([RecordStatus.Quarantined]), 0, 1, record.position.offset + STATUS_OFFSET);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return entry;
}

function openPlainSegment(logDir: string, record: Located): number {
  try {
    return openSync(segmentPath(logDir, record.position.segment), 'r+');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    throw new Error(`entry ${record.id} is in a compressed segment of the log: it is processed, and cannot be quarantined`);
  }
}

/** The processor's stop, as the service left it for the quarantine command (stopped.json). */
export interface StoppedAt {
  logId: number;
  path: string;
  message: string;
}

export const stoppedFile = (logDir: string): string => join(logDir, 'stopped.json');

export function readStoppedAt(logDir: string): StoppedAt | undefined {
  try {
    return JSON.parse(readFileSync(stoppedFile(logDir), 'utf8')) as StoppedAt;
  } catch {
    return undefined;
  }
}

/** Written when processing stops (and removed when it goes on), so the quarantine command can
 *  name the entry and keep the store's error with the quarantine. */
export function writeStoppedAt(logDir: string, stopped: StoppedAt | null): void {
  const file = stoppedFile(logDir);
  if (stopped) writeFileSync(file, JSON.stringify(stopped));
  else rmSync(file, { force: true });
}
