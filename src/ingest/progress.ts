import { readProgressMs } from '../config/tuning.ts';

// A periodic progress line for long jobs: done/total, rate and ETA. On a terminal it redraws one
// line; elsewhere (CI logs) it prints a line every few seconds.

export interface Progress {
  update(done: number): void;
  finish(): void;
}

/** Whole seconds as 0m00s (rounded first, so 179.6 s reads 3m00s, not 2m60s). */
export const fmtTime = (s: number): string => {
  if (!Number.isFinite(s)) return '?';
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`;
};

/** `from`: what was done before this run (a resumed job), left out of its rate. */
export function progress(label: string, total: number, unit = 'entries', out: NodeJS.WriteStream = process.stderr, from = 0): Progress {
  const started = performance.now();
  const tty = out.isTTY;
  const every = tty ? 250 : readProgressMs(process.env);
  let last = 0;
  let done = from;
  const line = () => {
    const secs = (performance.now() - started) / 1000;
    const rate = (done - from) / Math.max(secs, 1e-3);
    const pct = total > 0 ? ((100 * done) / total).toFixed(1) : '?';
    const eta = total > 0 && rate > 0 ? fmtTime((total - done) / rate) : '?';
    const text = `${label}: ${done}/${total} ${unit} (${pct}%) ${rate.toFixed(0)} ${unit}/s, ETA ${eta}`;
    if (tty) out.write(`\r${text}\x1b[K`);
    else out.write(`${text}\n`);
  };
  return {
    update(n: number) {
      done = n;
      const now = performance.now();
      if (now - last >= every) {
        last = now;
        line();
      }
    },
    finish() {
      line();
      if (tty) out.write('\n');
    },
  };
}
