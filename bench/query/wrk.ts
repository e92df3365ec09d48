// Closed-loop HTTP load with wrk (Debian's `wrk`), when it is installed: the same 32 connections as
// load.ts's undici pool, but the load generator is C on one thread. On a 2-core machine the
// generator shares the cores with the server; undici spends ~50 µs of CPU a request, which capped
// every cheap read near 14k req/s whatever the server did (issue 35). GETs only: each request takes
// the next path of a rotating list, so a case with ids asks a different one each time.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult } from './load.ts';

/** Whether `wrk` is on the PATH. */
export const haveWrk = (): boolean => spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error === undefined;

/** Milliseconds of a wrk latency figure ("812.00us", "1.38ms", "1.02s"). */
export function wrkMs(figure: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(figure.trim());
  if (!m) throw new Error(`not a wrk latency: ${figure}`);
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as 'us' | 'ms' | 's' | 'm'];
  return Number(m[1]) * scale;
}

/** The rate, percentiles and errors of wrk's `--latency` report. */
export function parseWrk(name: string, clients: number, seconds: number, out: string): LoadResult {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  if (!Number.isFinite(rps) || !Number.isFinite(requests)) throw new Error(`wrk gave no rate:\n${out}`);
  const pct = (p: number) => {
    const m = new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out);
    return m ? wrkMs(m[1]) : NaN;
  };
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = non2xx + (socket ? socket.slice(1).reduce((a, n) => a + Number(n), 0) : 0);
  // wrk prints 50/75/90/99; p95 is not among them, so it is left out (NaN) rather than made up.
  return { name, clients, requests, errors, seconds, rps, p50: pct(50), p95: NaN, p99: pct(99) };
}

/** `clients` connections for `seconds`, each request the next of `paths` (rotating). */
export async function wrkLoop(baseUrl: string, name: string, paths: string[], clients: number, seconds: number): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'wrk-'));
  try {
    const script = join(dir, 'paths.lua');
    writeFileSync(script, [`local paths = {${paths.map((p) => JSON.stringify(p)).join(',\n')}}`, 'local i = 0', 'request = function()', '  i = i + 1', '  return wrk.format("GET", paths[(i % #paths) + 1])', 'end', ''].join('\n'));
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn('wrk', ['-t1', `-c${clients}`, `-d${seconds}s`, '--latency', '-s', script, baseUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d));
      child.stderr.on('data', (d: Buffer) => (text += d));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}:\n${text}`))));
    });
    return parseWrk(name, clients, seconds, out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
