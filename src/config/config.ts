// Service configuration from environment variables. A bad value stops start-up with one line naming
// the variable (ConfigError), so a typo never runs the service with a silently different setting.
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';

export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

export type ApiMode = 'default' | 'readonly' | 'writeonly';

export interface StoreConfig {
  /** Unset: embedded chdb in dataDir. Set: a ClickHouse server. */
  url?: string;
  user?: string;
  password?: string;
  database: string;
  /** With a cluster name the DDL uses ON CLUSTER and Replicated engines. */
  cluster?: string;
}

export interface Config {
  eventHost: string;
  eventPort: number;
  apiHost: string;
  apiPort: number;
  /** Threads that serve the API on its port (the main thread and apiThreads - 1 workers: src/api-threads). */
  apiThreads: number;
  dataDir: string;
  chainId: number;
  isMainnet: boolean;
  mode: ApiMode;
  store: StoreConfig;
  /** Largest observer request body accepted, bytes. */
  eventBodyLimit: number;
  /** How often the rows of txs that left the pending mempool are compacted away, ms (0: every batch). */
  mempoolCleanupMs: number;
  /** A live batch commits at least this often, ms: what arrives is readable and announced within it
   *  even when a backlog or read load slows processing (imports close batches by size alone). */
  liveBatchMs: number;
  /** Keep the serving store (off: a writer whose API runs in followers keeps none). */
  servingStore: boolean;
  /** Answer point reads from the serving store (off: every read asks ClickHouse; the store is still written). */
  servingReads: boolean;
  /** Read-only mode: the event log directory of the writer this process follows (src/ingest/follow.ts). */
  followLog?: string;
  /** Origins browsers may call the API from: '*' (any), or a list (the request's origin is echoed when listed). */
  corsOrigins: '*' | string[];
  /** One line per answered API request on stdout. */
  requestLog: boolean;
  /** /ready answers 503 when processing is this many event-log entries behind (or more). */
  readyMaxLag: number;
  /** A mined canonical tx this many blocks below the tip is final: clients may keep its answer a day. */
  settledDepth: number;
  /** POST /extended/analytics/v1/sql: unset = off (the default); set by a token and its limits. */
  analyticsSql?: AnalyticsSqlConfig;
}

export interface AnalyticsSqlConfig {
  /** Callers send it as `Authorization: Bearer <token>`. */
  token: string;
  maxExecutionSeconds: number;
  maxResultRows: number;
  maxMemoryBytes: number;
}

type Env = Record<string, string | undefined>;

export function readPort(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new ConfigError(name, `expected a port number 0-65535, got "${raw}"`);
  return Number(raw);
}

export function readPositiveInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) throw new ConfigError(name, `expected a positive integer, got "${raw}"`);
  return Number(raw);
}

/** STACKS_API_THREADS: 1-64, default one per core up to 4 (the serving reads are CPU-bound on the
 *  thread that answers them; past 4 the engine and ingest want the cores). */
function readApiThreads(env: Env): number {
  const raw = env.STACKS_API_THREADS;
  if (raw === undefined || raw === '') return Math.max(1, Math.min(4, availableParallelism()));
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 64) throw new ConfigError('STACKS_API_THREADS', `expected a whole number 1-64, got "${raw}"`);
  return Number(raw);
}

function readNonNegativeInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  return Number(raw);
}

function readString(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : raw;
}

function readChainId(env: Env): number {
  const raw = env.STACKS_CHAIN_ID;
  if (raw === undefined || raw === '') return 0x00000001;
  const m = /^(0x)?([0-9a-fA-F]{1,8})$/.exec(raw);
  if (!m) throw new ConfigError('STACKS_CHAIN_ID', `expected a hex chain id such as 0x00000001 (mainnet) or 0x80000000 (testnet), got "${raw}"`);
  return parseInt(m[2], 16) >>> 0;
}

function readOnOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on' || raw === '1' || raw === 'true') return true;
  if (raw === 'off' || raw === '0' || raw === 'false') return false;
  throw new ConfigError(name, `expected "on" or "off", got "${raw}"`);
}

function readMode(env: Env): ApiMode {
  const raw = env.STACKS_API_MODE;
  if (raw === undefined || raw === '' || raw === 'default') return 'default';
  if (raw === 'readonly' || raw === 'writeonly') return raw;
  throw new ConfigError('STACKS_API_MODE', `expected "readonly" or "writeonly", got "${raw}"`);
}

function readStore(env: Env): StoreConfig {
  const url = env.CLICKHOUSE_URL || undefined;
  if (url !== undefined) {
    try {
      const u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
    } catch {
      throw new ConfigError('CLICKHOUSE_URL', `expected an http(s):// URL, got "${url}"`);
    }
  }
  const database = readString(env, 'CLICKHOUSE_DATABASE', 'stacks');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) throw new ConfigError('CLICKHOUSE_DATABASE', `expected an identifier, got "${database}"`);
  const cluster = env.CLICKHOUSE_CLUSTER || undefined;
  if (cluster !== undefined && !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(cluster)) throw new ConfigError('CLICKHOUSE_CLUSTER', `expected a cluster name, got "${cluster}"`);
  if (cluster !== undefined && url === undefined) throw new ConfigError('CLICKHOUSE_CLUSTER', 'needs CLICKHOUSE_URL (the embedded store is a single node)');
  return { url, user: env.CLICKHOUSE_USER || undefined, password: env.CLICKHOUSE_PASSWORD || undefined, database, cluster };
}

function readFollowLog(env: Env, mode: ApiMode): string | undefined {
  const raw = env.STACKS_API_FOLLOW_LOG;
  if (raw === undefined || raw === '') return undefined;
  if (mode !== 'readonly') throw new ConfigError('STACKS_API_FOLLOW_LOG', 'needs STACKS_API_MODE=readonly (a writer has its own log)');
  if (!existsSync(raw) || !statSync(raw).isDirectory()) throw new ConfigError('STACKS_API_FOLLOW_LOG', `expected the writer's event log directory, "${raw}" is not a directory`);
  return raw;
}

function readCorsOrigins(env: Env): '*' | string[] {
  const raw = env.STACKS_API_CORS_ORIGIN;
  if (raw === undefined || raw === '' || raw === '*') return '*';
  const origins = raw.split(',').map((o) => o.trim()).filter(Boolean);
  for (const o of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(o)) throw new ConfigError('STACKS_API_CORS_ORIGIN', `expected "*" or a comma-separated list of origins such as https://explorer.example.com, got "${o}"`);
  }
  return origins;
}

/** The analytics SQL endpoint: on only with a token (16+ characters), with the engine limits it runs under. */
function readAnalyticsSql(env: Env): AnalyticsSqlConfig | undefined {
  const token = env.STACKS_API_ANALYTICS_SQL_TOKEN;
  if (token === undefined || token === '') return undefined;
  if (token.length < 16 || /\s/.test(token)) throw new ConfigError('STACKS_API_ANALYTICS_SQL_TOKEN', 'expected at least 16 characters without spaces');
  return {
    token,
    maxExecutionSeconds: readPositiveInt(env, 'STACKS_API_ANALYTICS_SQL_MAX_SECONDS', 10),
    maxResultRows: readPositiveInt(env, 'STACKS_API_ANALYTICS_SQL_MAX_ROWS', 10_000),
    maxMemoryBytes: readPositiveInt(env, 'STACKS_API_ANALYTICS_SQL_MAX_MEMORY_MB', 1024) * 1024 * 1024,
  };
}

export function loadConfig(env: Env = process.env): Config {
  const chainId = readChainId(env);
  const mode = readMode(env);
  return {
    eventHost: readString(env, 'STACKS_CORE_EVENT_HOST', '127.0.0.1'),
    eventPort: readPort(env, 'STACKS_CORE_EVENT_PORT', 3700),
    apiHost: readString(env, 'STACKS_BLOCKCHAIN_API_HOST', '0.0.0.0'),
    apiPort: readPort(env, 'STACKS_BLOCKCHAIN_API_PORT', 3999),
    apiThreads: readApiThreads(env),
    dataDir: readString(env, 'STACKS_API_DATA_DIR', './data'),
    chainId,
    isMainnet: chainId === 0x00000001,
    mode,
    store: readStore(env),
    eventBodyLimit: readPositiveInt(env, 'STACKS_CORE_EVENT_BODY_LIMIT', 500 * 1024 * 1024),
    mempoolCleanupMs: readNonNegativeInt(env, 'STACKS_API_MEMPOOL_CLEANUP_MS', 30_000),
    liveBatchMs: readNonNegativeInt(env, 'STACKS_API_LIVE_BATCH_MS', 5_000),
    servingStore: readOnOff(env, 'STACKS_API_SERVING_STORE', true),
    servingReads: readOnOff(env, 'STACKS_API_SERVING_READS', true),
    followLog: readFollowLog(env, mode),
    corsOrigins: readCorsOrigins(env),
    requestLog: readOnOff(env, 'STACKS_API_REQUEST_LOG', false),
    readyMaxLag: readPositiveInt(env, 'STACKS_API_READY_MAX_LAG', 1000),
    settledDepth: readPositiveInt(env, 'STACKS_API_SETTLED_DEPTH', 100),
    analyticsSql: readAnalyticsSql(env),
  };
}
