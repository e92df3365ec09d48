// One ClickHouse client for the whole process: embedded chdb in the data directory by default,
// a ClickHouse server when CLICKHOUSE_URL is set. Code above this layer does not know which.
import { limitMallocArenas } from '../runtime/process-memory.ts';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { accessSync, constants, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { join, resolve } from 'node:path';
import type { StoreConfig } from '../config/config.ts';
import { inlineParams } from './inline-params.ts';
import { cancelLostInsertRecords } from './lost-inserts.ts';

export interface Store {
  /** For writes and DDL (the ingest side). */
  client: ClickHouseClient;
  /** A read query's JSONEachRow rows. Embedded, it runs on one of a few direct chdb sessions (so
   *  reads run side by side with each other and with ingest; one session runs one query at a time),
   *  single-threaded, without the query log and without the client layer, which added 0.4-0.9 ms
   *  per query. */
  read<T>(query: string, params: Record<string, unknown>): Promise<T[]>;
  /** Insert lanes that may run side by side (independent tables of one batch). */
  writers(): RowWriter[];
  /** Set for a ClickHouse server cluster: DDL runs ON CLUSTER with Replicated engines. */
  cluster?: string;
  embedded: boolean;
  database: string;
  /** The embedded engine's data path (for a session of its own, e.g. the analytics SQL sandbox). */
  path?: string;
}

/** Inserts rows as a Native stream (native-format.ts: blocks whose columns are `columns`) into one
 *  table; `token` makes a repeated insert a no-op. */
export interface RowWriter {
  insertRows(table: string, columns: readonly string[], body: Uint8Array, token: string): Promise<void>;
}

const READ_SESSIONS = 4;

const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** A server takes the Native stream as the request body of the INSERT. */
function clientWriter(client: ClickHouseClient): RowWriter {
  return {
    insertRows: async (table, columns, body, token) => {
      await client.exec({
        query: `INSERT INTO ${table} (${columns.join(', ')}) SETTINGS insert_deduplication_token = '${token}' FORMAT Native`,
        values: Readable.from([asBuffer(body)]),
      });
    },
  };
}

/**
 * chdb's raw insert takes text formats only (a large binary body is cut short on its inline-data
 * path), so the Native stream is written to a file of this lane's and inserted with INSERT ...
 * SELECT from it: the engine reads a Native file at memory speed, where its JSON parser was over half
 * of an insert's CPU. The file lives in tmpfs where there is one (/dev/shm), so it is a memory copy.
 * The insert squashes the stream's blocks (one per log entry) into parts as an insert of one block
 * would, and its deduplication token works as for any insert.
 */
function chdbWriter(lane: ClickHouseClient, file: string): RowWriter {
  return {
    insertRows: async (table, columns, body, token) => {
      writeFileSync(file, body);
      const list = columns.join(', ');
      await lane.command({ query: `INSERT INTO ${table} (${list}) SETTINGS insert_deduplication_token = '${token}' SELECT ${list} FROM file('${file}', Native)` });
    },
  };
}

/** Where insert files go: tmpfs when the machine has a writable one. */
function insertFileDir(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

export async function openStore(cfg: StoreConfig, dataDir: string): Promise<Store> {
  if (cfg.url) {
    const admin = createClient({ url: cfg.url, username: cfg.user, password: cfg.password });
    const onCluster = cfg.cluster ? ` ON CLUSTER \`${cfg.cluster}\`` : '';
    await admin.command({ query: `CREATE DATABASE IF NOT EXISTS \`${cfg.database}\`${onCluster}` });
    await admin.close();
    const client = createClient({
      url: cfg.url,
      username: cfg.user,
      password: cfg.password,
      database: cfg.database,
      clickhouse_settings: { date_time_output_format: 'iso', output_format_json_quote_64bit_integers: 1 },
    });
    // The HTTP client pools connections: one client serves concurrent reads.
    const writer = clientWriter(client);
    const read = async <T>(query: string, params: Record<string, unknown>) => (await client.query({ query, query_params: params, format: 'JSONEachRow' })).json<T>();
    return { client, read, writers: () => [writer, writer], cluster: cfg.cluster, embedded: false, database: cfg.database };
  }
  // Before the engine's threads start: their freed memory is shared by fewer arenas (process-memory.ts).
  limitMallocArenas();
  // chdb is loaded lazily so that a server deployment never needs its 500 MB binary in memory.
  const { createChdbConnection } = await import('chdb/connection');
  const path = resolve(dataDir, 'clickhouse');
  mkdirSync(path, { recursive: true });
  // Before the engine loads its tables: a crash inside an insert may have left a record that would
  // drop the redo of that insert (lost-inserts.ts).
  for (const { table, parts } of cancelLostInsertRecords(path)) {
    console.error(`engine: ${table}: cancelled the deduplication records of ${parts.length} part(s) not on disk (${parts.slice(0, 4).join(', ')}), so a redone insert is stored`);
  }
  // The engine starts with the process's first connection to the directory, and takes its server
  // settings from it only; this one stays open so that the others share that engine.
  const engine = await openEngine(path);
  const session = async () => {
    const connection = createChdbConnection({ path });
    const c = createClient({ connection } as Parameters<typeof createClient>[0]);
    await c.command({ query: `CREATE DATABASE IF NOT EXISTS \`${cfg.database}\`` });
    await c.command({ query: `USE \`${cfg.database}\`` });
    // Session-wide, as the server client passes them per request: big integers travel as strings.
    await c.command({ query: 'SET output_format_json_quote_64bit_integers = 1, date_time_output_format = \'iso\'' });
    const file = join(insertFileDir(), `stacks-insert-${process.pid}-${++sessions}.native`);
    return { client: c, writer: chdbWriter(c, file), file };
  };
  let sessions = 0;
  const main = await session();
  const client = main.client;
  // Two insert lanes: the writer session and one extra (more gains nothing on a few cores, and the
  // read sessions stay free for the API).
  const extra = await session();
  const lanes = [main.writer, extra.writer];
  const readers = await directReadSessions(path, cfg.database);
  let next = 0;
  // Closing the store's client closes the other sessions too.
  const closeWriter = client.close.bind(client);
  client.close = async () => {
    for (const r of readers) r.close();
    engine.close();
    await extra.client.close();
    await closeWriter();
    for (const f of [main.file, extra.file]) rmSync(f, { force: true });
  };
  return {
    client,
    read: <T>(query: string, params: Record<string, unknown>) => readDirect<T>(readers[next++ % readers.length], query, params),
    writers: () => lanes,
    embedded: true,
    database: cfg.database,
    path,
  };
}

interface ChdbSession {
  query(sql: string, format?: string): string;
  queryAsync(sql: string, opts?: { format?: string }): Promise<{ text(): string }>;
  queryBindAsync(sql: string, params: object, opts?: { format?: string }): Promise<{ text(): string }>;
  close(): void;
}

/**
 * Server settings of the embedded engine (not settable by a query). Two merges at a time, not four:
 * the merge pool has two threads here (one a core), and at the default concurrency ratio of 2 it
 * keeps four merges open, each holding a read buffer for every column of every part it merges
 * (~10 MiB a part for principal_events). The 1M import's engine memory peaked 425 MiB instead of
 * 542, at the same CPU a tx (bench/RESULTS.md, twenty-fifth session).
 */
export const ENGINE_SERVER_ARGS = ['--background_merges_mutations_concurrency_ratio=1'];

/** chdb's Session class, typed as this module uses it (its declarations lack connectionArgs). */
async function sessionClass(): Promise<new (path: string, opts?: { connectionArgs: string[] }) => ChdbSession> {
  return ((await import('chdb')) as unknown as { Session: new (path: string, opts?: { connectionArgs: string[] }) => ChdbSession }).Session;
}

async function openEngine(path: string): Promise<ChdbSession> {
  const Session = await sessionClass();
  return new Session(path, { connectionArgs: ENGINE_SERVER_ARGS });
}

/** Sessions for API reads: one thread per query (point reads gain nothing from more, and the API
 *  runs many side by side), no query log. */
async function directReadSessions(path: string, database: string): Promise<ChdbSession[]> {
  const Session = await sessionClass();
  return Array.from({ length: READ_SESSIONS }, () => {
    const s = new Session(path);
    s.query(`USE \`${database}\``);
    s.query(`SET max_threads = 1, log_queries = 0, output_format_json_quote_64bit_integers = 1, date_time_output_format = 'iso'`);
    return s;
  });
}

async function readDirect<T>(session: ChdbSession, query: string, params: Record<string, unknown>): Promise<T[]> {
  // Bound here when it can be: the engine's own binding runs one query at a time process-wide.
  const bound = Object.keys(params).length ? inlineParams(query, params) : query;
  const result = bound === undefined ? await session.queryBindAsync(query, params, { format: 'JSONEachRow' }) : await session.queryAsync(bound, { format: 'JSONEachRow' });
  const text = result.text();
  const out: T[] = [];
  for (let i = 0; i < text.length; ) {
    const end = text.indexOf('\n', i);
    const line = end < 0 ? text.slice(i) : text.slice(i, end);
    if (line) out.push(JSON.parse(line) as T);
    i = end < 0 ? text.length : end + 1;
  }
  return out;
}

