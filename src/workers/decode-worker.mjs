// Piscina worker entry: registers tsx so the TypeScript decoder loads in the worker thread.
import { register } from 'tsx/esm/api';

register();
// Named for per-thread CPU accounting (bench/ingest/stage-cpu.ts, top -H).
(await import('../metrics/thread-name.ts')).nameThread('decode');
const { decodeEntriesMovable, decodeEventMovable } = await import('./decode-event.ts');
const { move, transferableSymbol, valueSymbol } = await import('piscina');

// The outcome's row bytes are moved to the processor, not copied (structured clone of the rows as
// strings was a third of what a decode sent back, and the processor's main thread paid to read it).
// A task is one entry ({ path, body, bootBody, serve }) or several ({ entries, serve }).
export default function decode(task) {
  if (!task.entries) {
    const { outcome, moved } = decodeEventMovable(task);
    return move({ [transferableSymbol]: moved, [valueSymbol]: outcome });
  }
  const { outcomes, moved } = decodeEntriesMovable(task.entries, task.serve !== false);
  return move({ [transferableSymbol]: moved, [valueSymbol]: outcomes });
}
