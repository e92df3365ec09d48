// Settings read where they are used (the decode pool, the response cache, the query log, the
// response checks), validated here. loadStartupConfig runs these checks at start-up, before
// anything opens, so a bad value stops the service with one line naming the variable.
import { availableParallelism } from 'node:os';
import { ConfigError } from './config.ts';

type Env = Record<string, string | undefined>;

export interface Tuning {
  decodeThreads: number;
  /** 0: no response cache. */
  responseCacheMb: number;
  traceQueries: boolean;
  validateResponses: boolean;
  chainStateHeights: number;
  storeResidentMb: number;
  progressMs: number;
  storeMinFreeMb: number;
}

const set = (env: Env, name: string) => env[name] !== undefined && env[name] !== '';

function wholeNumber(env: Env, name: string, min: number, max: number, fallback: number): number {
  if (!set(env, name)) return fallback;
  const raw = env[name]!;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new ConfigError(name, `expected a whole number ${min}-${max}, got "${raw}"`);
  return Number(raw);
}

/** `1` on, `0` or unset off. */
export function readFlag(env: Env, name: string): boolean {
  if (!set(env, name)) return false;
  if (env[name] === '1') return true;
  if (env[name] === '0') return false;
  throw new ConfigError(name, `expected 1 or 0, got "${env[name]}"`);
}

/** A flag read at module load, before start-up checks ran: a bad value counts as off here (the
 *  start-up check then stops the service naming it). */
export function flagOrOff(env: Env, name: string): boolean {
  try {
    return readFlag(env, name);
  } catch {
    return false;
  }
}

/** STACKS_API_DECODE_THREADS, else one fewer than the cores (at least 1, at most 4): the
 *  processor's thread is the other full-time consumer (see src/workers/pool.ts). */
export const readDecodeThreads = (env: Env): number => wholeNumber(env, 'STACKS_API_DECODE_THREADS', 1, 64, Math.max(1, Math.min(4, availableParallelism() - 1)));

/** STACKS_API_RESPONSE_CACHE_MB (default 64; 0 turns the cache off). */
export const readResponseCacheMb = (env: Env): number => wholeNumber(env, 'STACKS_API_RESPONSE_CACHE_MB', 0, 1024 * 1024, 64);

/** STACKS_API_CHAIN_STATE_HEIGHTS: heights below the tip whose blocks the processor keeps in memory
 *  (default 1024, far deeper than any reorg seen on mainnet; lower ones are read back when needed). */
export const readChainStateHeights = (env: Env): number => wholeNumber(env, 'STACKS_API_CHAIN_STATE_HEIGHTS', 0, 1_000_000, 1024);

/** STACKS_API_STORE_RESIDENT_MB: how far file-backed RSS may grow before the serving store's mapped
 *  pages are given back, so RSS does not grow with every page read (default 128; 0 never;
 *  src/serving/resident.ts). */
export const readStoreResidentMb = (env: Env): number => wholeNumber(env, 'STACKS_API_STORE_RESIDENT_MB', 0, 1024 * 1024, 128);

/** STACKS_API_STORE_WRITE_RESIDENT_MB: the same budget inside one batch's write, where each drop
 *  makes the write fault in again the pages it goes back to: RSS for CPU (default 0, never;
 *  bench/RESULTS.md, nineteenth session). */
export const readStoreWriteResidentMb = (env: Env): number => wholeNumber(env, 'STACKS_API_STORE_WRITE_RESIDENT_MB', 0, 1024 * 1024, 0);

/** Free disk space below which the serving store refuses a batch (src/serving/free-space.ts). */
export const readStoreMinFreeMb = (env: Env): number => wholeNumber(env, 'STACKS_API_STORE_MIN_FREE_MB', 0, 2 ** 40, 256);

/** How often a long job (import, rebuild) prints its progress line when not on a terminal. */
export const readProgressMs = (env: Env): number => wholeNumber(env, 'STACKS_API_PROGRESS_MS', 1, 3_600_000, 5000);

export function loadTuning(env: Env = process.env): Tuning {
  return {
    decodeThreads: readDecodeThreads(env),
    responseCacheMb: readResponseCacheMb(env),
    traceQueries: readFlag(env, 'STACKS_API_TRACE_QUERIES'),
    validateResponses: readFlag(env, 'STACKS_API_VALIDATE_RESPONSES'),
    chainStateHeights: readChainStateHeights(env),
    storeResidentMb: readStoreResidentMb(env),
    progressMs: readProgressMs(env),
    storeMinFreeMb: readStoreMinFreeMb(env),
  };
}
