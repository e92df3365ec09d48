// The processor's position in the event log, kept beside it. `committed` is the last entry whose
// rows are all stored. `pending` names the batch being written: after a crash that exact batch is
// redone first, with the same insert_deduplication_tokens, so rows already stored are not doubled.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface Checkpoint {
  committed: number;
  pending: { from: number; to: number } | null;
}

export function readCheckpoint(file: string): Checkpoint {
  try {
    const c = JSON.parse(readFileSync(file, 'utf8')) as Checkpoint;
    return { committed: Number(c.committed) || 0, pending: c.pending ?? null };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { committed: 0, pending: null };
    throw e;
  }
}

/** Atomic and durable: write a temp file, fsync, rename over. */
export function writeCheckpoint(file: string, c: Checkpoint): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, JSON.stringify(c));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  const dirFd = openSync(dirname(file), 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}
