// Processing the event log up to an entry with a progress line (rate and ETA): the second half of
// an import and all of a re-index.
import type { Processor } from '../ingest/processor/processor.ts';
import type { Store } from '../storage/client.ts';
import { mergeAggregates } from '../storage/merge-aggregates.ts';
import { progress } from '../ingest/progress.ts';

/** Resolves when the processor has committed `target` or stopped at an entry (processor.error). */
export async function processWithProgress(processor: Processor, target: number, label: string): Promise<void> {
  const bar = progress(label, target, 'entries', process.stderr, processor.committedId);
  // kick() resolves only when the processor has caught up, so the bar is drawn while it runs.
  let running: Promise<void> | null = null;
  for (;;) {
    running ??= processor.kick().finally(() => (running = null));
    bar.update(processor.committedId);
    if (processor.error || processor.committedId >= target) break;
    await Promise.race([running, new Promise((r) => setTimeout(r, 200))]);
  }
  await running;
  bar.finish();
}

/** One line of what processing did and where its time went. */
export function describeStats(stats: Processor['stats']): string {
  const s = (ms: number) => (ms / 1000).toFixed(1);
  return `processed ${stats.entries} entries (${stats.rejected} rejected${stats.quarantined ? `, ${stats.quarantined} quarantined` : ''}) in ${stats.batches} batches: decode wait ${s(stats.decodeMs)} s, apply ${s(stats.applyMs)} s, insert ${s(stats.insertMs)} s (of which the serving store ${s(stats.servingMs)} s)`;
}

/** After a complete bulk run: the analytics aggregates merged into one part each (src/storage/merge-aggregates.ts), as one line. */
export async function mergeAggregatesLine(store: Store): Promise<string> {
  const t0 = performance.now();
  const parts = await mergeAggregates(store);
  return `merged the analytics aggregates in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${Object.entries(parts).map(([t, n]) => `${t} ${n} part${n === 1 ? '' : 's'}`).join(', ')}`;
}
