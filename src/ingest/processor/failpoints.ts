// Crash points for the crash-recovery tests: STACKS_API_FAILPOINT=<name>[:<nth>] kills the process
// (SIGKILL, as a crash) the nth time (default first) the named point is passed. Unset: a no-op.
const spec = process.env.STACKS_API_FAILPOINT ?? '';
const [armed, nth] = spec.split(':');
let hits = 0;

export function failpoint(name: string): void {
  if (!armed || name !== armed) return;
  if (++hits >= Number(nth || 1)) process.kill(process.pid, 'SIGKILL');
}
