// What a re-index removes from a data directory: everything derived from the event log, never the
// log itself (its segments, and the quarantine journal an operator's decisions are kept in).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { eventLogDir } from '../ingest/pipeline.ts';
import { servingDir } from '../serving/store.ts';
import { stoppedFile } from '../ingest/event-log/quarantine.ts';

/**
 * In this order, so that a removal stopped part-way never leaves a checkpoint over missing rows:
 * the processor's positions first (its checkpoint, a follower's, where processing last stopped),
 * then the serving store, then the embedded engine's tables (a server's are dropped by the caller).
 * The import state (events/import.json) stays: it says which rows of an import file are in the log,
 * so that running that import again appends only the rest, and the log is not re-indexed away.
 */
export function removeDerivedStores(dataDir: string, opts: { embedded: boolean }): void {
  const log = eventLogDir(dataDir);
  for (const checkpoint of [join(log, 'checkpoint.json'), join(dataDir, 'follow-checkpoint.json')]) {
    rmSync(checkpoint, { force: true });
    rmSync(`${checkpoint}.tmp`, { force: true });
  }
  rmSync(stoppedFile(log), { force: true });
  rmSync(servingDir(dataDir), { recursive: true, force: true });
  if (opts.embedded) rmSync(join(dataDir, 'clickhouse'), { recursive: true, force: true });
}
