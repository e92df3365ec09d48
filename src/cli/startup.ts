// Every environment variable the service reads, checked in one place before anything starts.
import { ConfigError, loadConfig, type Config } from '../config/config.ts';
import { loadTuning, type Tuning } from '../config/tuning.ts';
import { loadProxyConfig, type ProxyConfig } from '../http/proxy/config.ts';
import { loadRealtimeConfig, type RealtimeConfig } from '../realtime/config.ts';
import { readDeprecatedEndpoints } from '../http/conventions/deprecation.ts';

export interface StartupConfig {
  config: Config;
  proxy: ProxyConfig;
  tuning: Tuning;
  realtime: RealtimeConfig;
}

/** Throws ConfigError naming the first bad variable. */
export function loadStartupConfig(env: Record<string, string | undefined> = process.env): StartupConfig {
  const loaded = { config: loadConfig(env), proxy: loadProxyConfig(env), tuning: loadTuning(env), realtime: loadRealtimeConfig(env) };
  // Read where the routes are registered (each API thread); checked here.
  readDeprecatedEndpoints(env);
  return loaded;
}

/** Runs `load`; a bad setting ends the process with one line naming it (exit code 2). */
export function configOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (e) {
    exitOnConfigError(e);
  }
}

/** configOrExit for a check that asks a store (e.g. the layout of its tables); `release` closes
 *  what is open (the store, the data directory's lock) before the process ends. */
export async function configOrExitAsync<T>(load: () => Promise<T>, release?: () => Promise<void>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    if (e instanceof ConfigError) await release?.();
    exitOnConfigError(e);
  }
}

/** A ConfigError ends the process with its one line (exit code 2); anything else is rethrown. */
function exitOnConfigError(e: unknown): never {
  if (!(e instanceof ConfigError)) throw e;
  console.error(`configuration error: ${e.message}`);
  process.exit(2);
}
