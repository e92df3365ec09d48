// Waits until a process has gone quiet: after a large import the engine merges parts for minutes,
// and read cases measured meanwhile share the cores with those merges.
import { processCpuSeconds as cpuSeconds } from './cpu-profile.ts';

/** Resolves once `pid` used under `share` of a core over `windowS` seconds (or after `maxS`); the
 *  seconds waited. */
export async function waitQuiet(pid: number, opts: { share?: number; windowS?: number; maxS?: number } = {}): Promise<number> {
  const { share = 0.1, windowS = 5, maxS = 600 } = opts;
  const t0 = performance.now();
  for (;;) {
    const before = cpuSeconds(pid);
    await new Promise((r) => setTimeout(r, windowS * 1000));
    const used = (cpuSeconds(pid) - before) / windowS;
    const waited = (performance.now() - t0) / 1000;
    if (used < share || waited >= maxS) return waited;
    console.log(`waiting for the service to go quiet: ${(used * 100).toFixed(0)}% of a core over the last ${windowS} s (${waited.toFixed(0)} s waited, at most ${maxS})`);
  }
}
