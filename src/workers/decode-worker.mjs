// Piscina worker entry: registers tsx so the TypeScript decoder loads in the worker thread.
import { register } from 'tsx/esm/api';
import { writeFileSync } from 'node:fs';

// Named for per-thread CPU accounting (bench/ingest/stage-cpu.ts, top -H); Linux only, best effort.
try {
  writeFileSync('/proc/thread-self/comm', 'decode');
} catch {
  // not Linux, or /proc not mounted
}
register();
const { decodeEvent } = await import('./decode-event.ts');

export default decodeEvent;
