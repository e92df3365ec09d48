// Runs one of the project's CLIs as a child process (as a user would), optionally timing it.
import { spawn } from 'node:child_process';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function runCli(script: string, args: string[], env: Record<string, string> = {}, opts: { inherit?: boolean } = {}): Promise<{ code: number | null; output: string; ms: number }> {
  const started = performance.now();
  return new Promise((res) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, script), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', opts.inherit ? 'inherit' : 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d));
    child.stderr?.on('data', (d: Buffer) => (output += d));
    child.once('exit', (code) => res({ code, output, ms: performance.now() - started }));
  });
}
