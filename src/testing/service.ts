// Test helper: runs the real service (`src/main.ts`; compiled when the build is current,
// compiled-service.ts) as a child process on free ports with its own data directory, as a user would
// run it. Tests talk to it over HTTP only.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { keptCopy, keptRoot, tempDataDir } from './kept-copy.ts';
import { join } from 'node:path';
import { PROJECT_ROOT as ROOT, SHARED_DIR as SHARED } from '../config/shared-dir.ts';
import { scriptEntryArgs, serviceEntryArgs } from './compiled-service.ts';

export { ROOT, SHARED };

export interface RunningService {
  apiUrl: string;
  eventUrl: string;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
  /** SIGKILL and wait: a crash. */
  kill(): Promise<void>;
}

export { tempDataDir };

/** A new data directory whose ClickHouse tables are already migrated (migrating costs about a second
 *  per service start): a copy of the tables a service made at its first start in this run. */
async function migratedDataDir(): Promise<string> {
  const root = keptRoot();
  if (!root) return tempDataDir();
  return keptCopy(root, 'migrated', async (dir) => {
    await (await startService({ dataDir: dir })).stop();
    // The tables and the layout marker (without it, tables alone are an earlier layout's).
    for (const entry of readdirSync(dir)) if (entry !== 'clickhouse' && entry !== 'layout.json') rmSync(join(dir, entry), { recursive: true, force: true });
  });
}

export async function startService(opts: { dataDir?: string; env?: Record<string, string>; nodeArgs?: string[] } = {}): Promise<RunningService> {
  const dataDir = opts.dataDir ?? (await migratedDataDir());
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...serviceEntryArgs()], {
    cwd: ROOT,
    env: {
      ...process.env,
      STACKS_API_DATA_DIR: dataDir,
      STACKS_CORE_EVENT_PORT: '0',
      STACKS_BLOCKCHAIN_API_PORT: '0',
      STACKS_BLOCKCHAIN_API_HOST: '127.0.0.1',
      // Every answer any test sees is checked against its route's declared response schema.
      STACKS_API_VALIDATE_RESPONSES: '1',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  // A read-only process has no event observer.
  const observer = opts.env?.STACKS_API_MODE !== 'readonly';
  const ports = await new Promise<{ api: number; events: number }>((res, rej) => {
    const found: { api?: number; events?: number } = observer ? {} : { events: -1 };
    const late = setTimeout(() => {
      // Killed: a service left running would keep the test's process, and the whole run, waiting.
      child.kill('SIGKILL');
      rej(new Error(`service did not start in 60 s:\n${out}`));
    }, 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const ev = /event observer listening on [^:]+:(\d+)/.exec(out);
      const api = /API listening on [^:]+:(\d+)/.exec(out);
      if (ev) found.events = Number(ev[1]);
      if (api) found.api = Number(api[1]);
      if (found.api && found.events) {
        clearTimeout(late);
        res(found as { api: number; events: number });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(late);
      rej(new Error(`service exited with ${code} before listening:\n${out}`));
    });
  });
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    // A service that does not stop in time is killed, so a broken one cannot hang the tests.
    const late = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(late);
  };
  return {
    apiUrl: `http://127.0.0.1:${ports.api}`,
    eventUrl: `http://127.0.0.1:${ports.events}`,
    dataDir,
    child,
    output: () => out,
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
  };
}

/** Waits until the service has processed everything it received (or processing stopped). */
export async function waitForProcessing(apiUrl: string, timeoutMs = 120_000): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${apiUrl}/extended`);
    const body = (await res.json()) as { event_log?: { behind: number; error?: unknown } };
    if (body.event_log && (body.event_log.behind === 0 || body.event_log.error)) return body;
    if (Date.now() > until) throw new Error(`processing did not catch up: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs one of ../shared/tools' scripts; resolves with its output and exit code. */
export function runTool(script: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, [join(SHARED, 'tools', script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => res({ code: code ?? 1, output }));
  });
}

/** Runs one of the project's scripts (a path under src/, compiled when the build is current) as a
 *  user would; `killWhen` is polled every 10 ms and a true answer SIGKILLs it (a crash). */
export function runScript(script: string, args: string[], env: Record<string, string> = {}, killWhen?: () => boolean): Promise<{ code: number | null; signal: string | null; output: string }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, [...scriptEntryArgs(script), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d));
    child.stderr!.on('data', (d: Buffer) => (output += d));
    const timer = killWhen === undefined ? undefined : setInterval(() => killWhen() && child.kill('SIGKILL'), 10);
    child.once('exit', (code, signal) => {
      clearInterval(timer);
      res({ code, signal, output });
    });
  });
}
