// Crash points for the crash-recovery tests: STACKS_API_FAILPOINT=<name>[:<nth>] kills the process
// (SIGKILL, as a crash) the nth time (default first) the named point is passed. Unset: a no-op.
const spec = process.env.STACKS_API_FAILPOINT ?? '';
const [armed, nth] = spec.split(':');
let hits = 0;

export function failpoint(name: string): void {
  if (!armed || name !== armed) return;
  if (++hits >= Number(nth || 1)) process.kill(process.pid, 'SIGKILL');
}

// STACKS_API_TEST_STORE_DELAY_MS: a pause between a batch's ClickHouse insert and its serving
// store write, holding open the moment when the two differ (the real-time follower test).
const STORE_DELAY_MS = Number(process.env.STACKS_API_TEST_STORE_DELAY_MS) || 0;

export function storeDelay(): Promise<void> | undefined {
  return STORE_DELAY_MS > 0 ? new Promise((resolve) => setTimeout(resolve, STORE_DELAY_MS)) : undefined;
}
