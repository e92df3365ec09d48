// Running a read query: named parameters always (never string-built SQL), JSON rows back.
import type { Store } from '../storage/client.ts';

export async function rows<T = Record<string, unknown>>(store: Store, query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const rs = await store.reader().query({ query, query_params: params, format: 'JSONEachRow' });
  return rs.json<T>();
}

export async function firstRow<T = Record<string, unknown>>(store: Store, query: string, params: Record<string, unknown> = {}): Promise<T | undefined> {
  return (await rows<T>(store, query, params))[0];
}
