// Piscina worker entry: one decode task, its outcome's row bytes moved to the processor, not copied
// (structured clone of the rows as strings was a third of what a decode sent back, and the
// processor's main thread paid to read it). A task is one entry ({ path, body, bootBody, serve }) or
// several ({ entries, serve }).
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { nameThread } from '../metrics/thread-name.ts';

// Named before the decoder loads, for per-thread CPU accounting (bench/ingest/stage-cpu.ts, top -H).
nameThread('decode');
const { decodeEntriesMovable, decodeEventMovable } = await import('./decode-event.ts');

type Task = import('./decode-event.ts').DecodeTask & { entries?: ReadonlyArray<{ path: string; body: Uint8Array }> };

export default function decode(task: Task): unknown {
  if (!task.entries) {
    const { outcome, moved } = decodeEventMovable(task);
    return move({ [transferableSymbol]: moved, [valueSymbol]: outcome });
  }
  const { outcomes, moved } = decodeEntriesMovable(task.entries, task.serve !== false);
  return move({ [transferableSymbol]: moved, [valueSymbol]: outcomes });
}
