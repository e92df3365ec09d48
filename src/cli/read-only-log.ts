// The event log as the pipeline sees it, for a command that must leave it as it is (a re-index):
// no appends, and none of the writer's recovery at open (which cuts a torn record off the tail).
import { readRecords } from '../ingest/event-log/reader.ts';
import { listSegments } from '../ingest/event-log/segments.ts';
import type { EventLog } from '../ingest/pipeline.ts';

export async function openReadOnlyLog(dir: string): Promise<EventLog> {
  const last = listSegments(dir).at(-1);
  // The last complete record ends the log (a torn one after it is left for the writer to cut).
  let lastId = last ? last.firstId - 1 : 0;
  if (last) for await (const r of readRecords(dir, { afterId: last.firstId - 1, withBody: false })) lastId = r.id;
  return {
    dir,
    durableId: lastId,
    onDurable: () => () => {},
    append: () => Promise.reject(new Error(`the event log at ${dir} is read-only here`)),
    close: async () => {},
  };
}
