// Engine (ClickHouse) reads of an API thread run on the main thread, by message.
//
// Why not a chdb session per thread: chdb binds one data path per process, and its Node binding
// keeps the state of parameterized queries per module instance while the engine's is process-wide
// (src/storage/inline-params.ts): sessions opened from a second thread would run bound queries on
// that shared state unsynchronized. The engine's CPU is its own threads' either way, so the message
// costs only the hop (tens of µs beside the ≥ 0.4 ms a query costs); the serving store's point reads,
// which are the API's hot path, stay on the thread that answers. Writes and DDL never run here.
import type { Store } from '../storage/client.ts';
import type { RpcChannel } from './rpc.ts';

export const ENGINE_READ = 'engine-read';

interface ReadCall {
  query: string;
  params: Record<string, unknown>;
}

/** What the main thread tells an API thread about its store (nothing an engine session needs). */
export interface StoreFacts {
  embedded: boolean;
  database: string;
  cluster?: string;
}

export function storeFacts(store: Store): StoreFacts {
  return { embedded: store.embedded, database: store.database, cluster: store.cluster };
}

/** Main thread: answers the API threads' reads with the process's store. */
export function serveEngineReads(channel: RpcChannel, store: Store): void {
  channel.handle<ReadCall, unknown[]>(ENGINE_READ, ({ query, params }) => store.read(query, params));
}

const mainThreadOnly = (what: string) => () => {
  throw new Error(`${what} runs on the main thread (src/api-threads/engine-reads.ts)`);
};

/** API thread: a store whose reads are the main thread's. Its client and writers refuse: nothing on
 *  an API thread writes, and a session of its own (`path`) is left unset on purpose, so the routes
 *  that need one (the analytics SQL sandbox) run on the main thread (main-routes.ts). */
export function remoteStore(channel: RpcChannel, facts: StoreFacts): Store {
  const client = new Proxy({}, { get: (_t, name) => (name === 'then' ? undefined : mainThreadOnly(`the engine client (${String(name)})`)) }) as Store['client'];
  return {
    client,
    read: <T>(query: string, params: Record<string, unknown>) => channel.call<T[]>(ENGINE_READ, { query, params } satisfies ReadCall),
    writers: mainThreadOnly('an engine write'),
    embedded: facts.embedded,
    database: facts.database,
    cluster: facts.cluster,
  };
}
