// Names the calling thread as Linux shows it (/proc/<pid>/task/<tid>/comm, top -H), so per-thread
// CPU accounting (bench/ingest/stage-cpu.ts) can tell the threads apart: every Node worker thread
// is otherwise called `node`, like libuv's threadpool and LMDB's writer. Best effort: other
// systems, or /proc not mounted, keep the default name.
import { writeFileSync } from 'node:fs';

export function nameThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // not Linux, or /proc not mounted
  }
}
