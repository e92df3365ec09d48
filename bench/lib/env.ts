// What every results table row names: the machine, the commit, the date.
import { execSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';

export function machine(): string {
  return `${cpus().length} cores (${cpus()[0]?.model.trim() ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

export function commit(): string {
  try {
    const sha = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
    const dirty = execSync('git status --porcelain --untracked-files=no', { encoding: 'utf8' }).trim() ? '+dirty' : '';
    return sha + dirty;
  } catch {
    return 'unknown';
  }
}

export const today = (): string => new Date().toISOString().slice(0, 10);

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
