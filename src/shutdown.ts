// How the service process ends: on SIGTERM/SIGINT in order and within a deadline, and on any
// uncaught error (on this thread or reported by another) with one clear line and a non-zero exit,
// so a supervisor restarts it. A process that cannot finish in time is killed rather than left
// half alive: every acknowledged event is already durable in the event log, and the processor
// resumes from its checkpoint.

/** SIGTERM to exit, ms: the process is gone within 5 s. */
const DEADLINE_MS = 4_000;

export interface Shutdown {
  /** Ends the process: runs the close step (once), then exits with `code`. */
  exit(reason: string, code: number): void;
}

export function installShutdown(close: () => Promise<void>): Shutdown {
  let closing = false;
  const exit = (reason: string, code: number): void => {
    if (closing) return;
    closing = true;
    if (code === 0) console.log(`${reason}: shutting down`);
    else console.error(`fatal: ${reason}`);
    // process.exit with the observer thread still running aborts in node's worker teardown (its
    // uWS sockets are open handles): past the deadline the process is killed instead.
    const late = setTimeout(() => {
      console.error(`shutdown: not finished after ${DEADLINE_MS} ms; killing the process`);
      process.kill(process.pid, 'SIGKILL');
    }, DEADLINE_MS);
    late.unref();
    close().then(
      () => process.exit(code),
      (err: unknown) => {
        console.error('shutdown failed:', err instanceof Error ? err.message : err);
        process.kill(process.pid, 'SIGKILL');
      },
    );
  };
  process.on('SIGTERM', () => exit('SIGTERM', 0));
  process.on('SIGINT', () => exit('SIGINT', 0));
  process.on('uncaughtException', (err) => exit(`uncaught error: ${describe(err)}`, 1));
  process.on('unhandledRejection', (err) => exit(`unhandled rejection: ${describe(err)}`, 1));
  return { exit };
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.message}${err.stack ? `\n${err.stack.split('\n').slice(1, 6).join('\n')}` : ''}`;
  return String(err);
}

