// The service process ends cleanly or not at all: SIGTERM under `npm start` ends the whole process
// tree within 5 s; a taken port stops start-up with one line; an uncaught error on any thread ends
// the process with a clear message (never a half-dead process with open ports).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, startService, tempDataDir } from './testing/service.ts';
import { rawRequest } from './testing/http.ts';
import { openWebSockets, threadRequests } from './testing/api-threads.ts';
import { readRecords } from './ingest/event-log/reader.ts';
import { eventLogDir } from './ingest/pipeline.ts';

/** Runs main.ts (or `npm start`) until it exits or `ms` pass; its output and how it ended. */
function run(cmd: string[], env: Record<string, string>, ms = 60_000): Promise<{ code: number | null; signal: string | null; stderr: string; stdout: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(cmd[0], cmd.slice(1), { cwd: ROOT, env: { ...process.env, STACKS_API_DATA_DIR: tempDataDir(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr, stdout, timedOut });
    });
  });
}

const mainTs = [process.execPath, '--import', 'tsx', 'src/main.ts'];
const ownLines = (text: string) => text.trim().split('\n').filter((l) => l && !l.startsWith('npm warn'));

test('a second copy on the same ports stops at start-up with one line (each with 2 API threads sharing its port)', { timeout: 180_000 }, async () => {
  const first = await startService({ env: { STACKS_API_THREADS: '2' } });
  try {
    const eventPort = new URL(first.eventUrl).port;
    const apiPort = new URL(first.apiUrl).port;
    // Both ports taken: the observer's listen fails first.
    const both = await run(mainTs, { STACKS_CORE_EVENT_PORT: eventPort, STACKS_BLOCKCHAIN_API_PORT: apiPort, STACKS_BLOCKCHAIN_API_HOST: '127.0.0.1' });
    assert.equal(both.timedOut, false, 'it stopped');
    assert.equal(both.code, 1, both.stderr);
    assert.deepEqual(ownLines(both.stderr), [`fatal: cannot listen on 127.0.0.1:${eventPort}: the port is in use or the address is not available`]);
    // Only the API port taken: the observer that did start is closed again.
    const api = await run(mainTs, { STACKS_CORE_EVENT_PORT: '0', STACKS_BLOCKCHAIN_API_PORT: apiPort, STACKS_BLOCKCHAIN_API_HOST: '127.0.0.1', STACKS_API_THREADS: '2' });
    assert.equal(api.timedOut, false, 'it stopped');
    assert.equal(api.code, 1, api.stderr);
    assert.deepEqual(ownLines(api.stderr), [`fatal: cannot listen on 127.0.0.1:${apiPort}: the port is in use or the address is not available`]);
    // The first copy was not disturbed: both its threads answer (new connections spread over them).
    for (let i = 0; i < 8; i++) assert.equal((await rawRequest(first.apiUrl, 'GET', '/extended')).status, 200);
    assert.ok((await threadRequests(first.apiUrl)).every((n) => n > 0), 'both API threads answered');
  } finally {
    await first.stop();
  }
});

/** Pids of `pid` and all its descendants (from /proc). */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      /* gone */
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`npm start ends as one process tree on ${signal} within 5 s, with the event log flushed`, { timeout: 180_000 }, async () => {
    const dataDir = tempDataDir();
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, STACKS_API_DATA_DIR: dataDir, STACKS_CORE_EVENT_PORT: '0', STACKS_BLOCKCHAIN_API_PORT: '0', STACKS_BLOCKCHAIN_API_HOST: '127.0.0.1', STACKS_API_THREADS: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    let tree: number[] = [];
    try {
      const [eventPort, apiPort] = await new Promise<[string, string]>((resolve, reject) => {
        const t = setInterval(() => {
          const m = /event observer listening on [^:]+:(\d+)/.exec(out);
          const api = /API listening on [^:]+:(\d+)/.exec(out);
          if (m && api) {
            clearInterval(t);
            resolve([m[1], api[1]]);
          }
        }, 50);
        child.once('exit', () => reject(new Error(`npm start exited:\n${out}`)));
      });
      const posted = await fetch(`http://127.0.0.1:${eventPort}/some_future_path`, { method: 'POST', body: '{}' });
      assert.equal(posted.status, 200);
      // Connections left open on the API threads (keep-alive HTTP and WebSockets) do not hold it up.
      await openWebSockets(`ws://127.0.0.1:${apiPort}/extended/v1/ws`, 6);
      assert.equal((await fetch(`http://127.0.0.1:${apiPort}/extended/v1/block?limit=1`)).status, 200);
      tree = processTree(child.pid!);
      assert.ok(tree.length >= 2, `npm and the service: ${tree.join(',')}`);
      const t0 = Date.now();
      child.kill(signal);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      // Every process of the tree is gone, not only npm.
      const deadline = t0 + 5_000;
      while (tree.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(tree.filter(alive), [], `still running ${Date.now() - t0} ms after ${signal}:\n${out}`);
    } finally {
      for (const pid of [...tree, ...processTree(child.pid!)].reverse()) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    const records = [];
    for await (const r of readRecords(eventLogDir(dataDir))) records.push(r.path);
    assert.deepEqual(records, ['/some_future_path']);
  });
}

// A module preloaded into the service (and, through execArgv, into its threads) that throws on one
// thread once a marker file appears: what a bug nothing caught would do.
const THREADS = {
  main: 'isMainThread',
  observer: '!isMainThread && !!workerData && !!workerData.durable',
  // An API worker thread (its workerData carries the commit feed): the first one only.
  api: '!isMainThread && !!workerData && !!workerData.feed && workerData.thread === 1',
};
const throwOn = (where: keyof typeof THREADS, marker: string) =>
  `data:text/javascript,${encodeURIComponent(`import { isMainThread, workerData } from 'node:worker_threads';
import { existsSync } from 'node:fs';
const here = ${THREADS[where]};
if (here) setInterval(() => { if (existsSync(${JSON.stringify(marker)})) throw new Error('injected failure on the ${where} thread'); }, 100).unref();`)}`;

for (const where of ['main', 'observer', 'api'] as const) {
  test(`an uncaught error on the ${where} thread ends the process with a clear message`, { timeout: 180_000 }, async () => {
    const marker = join(tempDataDir(), 'crash-now');
    const svc = await startService({ nodeArgs: ['--import', throwOn(where, marker)], env: { STACKS_API_THREADS: '2' } });
    assert.equal((await fetch(`${svc.apiUrl}/extended`)).status, 200);
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      svc.child.once('exit', (code, signal) => resolve({ code, signal }));
      setTimeout(() => resolve({ code: null, signal: 'still running after 20 s' }), 20_000);
    });
    writeFileSync(marker, '');
    const exit = await exited;
    await svc.kill();
    assert.deepEqual(exit, { code: 1, signal: null }, svc.output());
    assert.match(svc.output(), new RegExp(`fatal: (uncaught error: |uncaught error on the observer thread: |API thread 1: uncaught error: )injected failure on the ${where} thread`));
  });
}

// An API thread that ends (here it exits; a native crash would take the process with it anyway).
const exitOn = (marker: string) =>
  `data:text/javascript,${encodeURIComponent(`import { isMainThread, workerData } from 'node:worker_threads';
import { existsSync } from 'node:fs';
if (${THREADS.api}) setInterval(() => { if (existsSync(${JSON.stringify(marker)})) process.exit(7); }, 100).unref();`)}`;

test('an API thread that exits ends the process with a clear message', { timeout: 180_000 }, async () => {
  const marker = join(tempDataDir(), 'exit-now');
  const svc = await startService({ nodeArgs: ['--import', exitOn(marker)], env: { STACKS_API_THREADS: '2' } });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    svc.child.once('exit', (code, signal) => resolve({ code, signal }));
    setTimeout(() => resolve({ code: null, signal: 'still running after 20 s' }), 20_000);
  });
  const t0 = Date.now();
  writeFileSync(marker, '');
  const exit = await exited;
  await svc.kill();
  assert.deepEqual(exit, { code: 1, signal: null }, svc.output());
  assert.match(svc.output(), /^fatal: API thread 1 exited \(7\)$/m);
  assert.ok(Date.now() - t0 < 5_000, `ended ${Date.now() - t0} ms after the thread`);
});
