// Running a read query: named parameters always (never string-built SQL), JSON rows back.
import type { Store } from '../../storage/client.ts';
import { flagOrOff } from '../../config/tuning.ts';

const TRACE = flagOrOff(process.env, 'STACKS_API_TRACE_QUERIES');

export async function rows<T = Record<string, unknown>>(store: Store, query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const t0 = TRACE ? performance.now() : 0;
  const out = await store.read<T>(query, params);
  if (TRACE) console.error(`query ${(performance.now() - t0).toFixed(1)} ms: ${query.replace(/\s+/g, ' ').slice(0, 160)}`);
  return out;
}

export async function firstRow<T = Record<string, unknown>>(store: Store, query: string, params: Record<string, unknown> = {}): Promise<T | undefined> {
  return (await rows<T>(store, query, params))[0];
}
