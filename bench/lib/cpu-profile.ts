// Reading where a process spent its CPU: per-thread clocks from /proc (our JavaScript threads, the
// libuv threadpool that runs chdb's calls, ClickHouse's own pools) and the heaviest functions of a
// V8 `--cpu-prof` profile.
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds (user + system) in a /proc stat line, of a process or of one thread. */
function statSeconds(stat: string): number {
  // Fields after the parenthesised name; utime and stime are fields 14 and 15 of the whole line.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / TICKS_PER_SECOND;
}

/** CPU seconds a process has used. */
export const processCpuSeconds = (pid: number): number => statSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));

/** CPU seconds per thread name (threads of one name summed), plus the whole process. */
export function threadCpu(pid: number): { total: number; byName: Map<string, number> } {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const name = tid === String(pid) ? 'main (JavaScript)' : threadGroup(stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
    byName.set(name, (byName.get(name) ?? 0) + statSeconds(stat));
  }
  return { total: processCpuSeconds(pid), byName };
}

/** Thread names as the kernel truncates them, grouped by what they do. Our worker threads name
 *  themselves (api, observer, decode); Node names its other threads "node": libuv's
 *  threadpool (where chdb runs each query call) and V8's platform threads (the compiler, the
 *  collector); ClickHouse names its pools. */
const OUR_THREADS = new Set(['api', 'observer', 'decode']);
function threadGroup(comm: string): string {
  if (OUR_THREADS.has(comm)) return `${comm} thread (JavaScript)`;
  if (comm === 'node') return 'node threads (libuv pool: chdb calls; V8 compiler and collector)';
  if (comm.startsWith('v8:')) return `V8 profiler (${comm})`;
  return `engine: ${comm.replace(/\d+$/, '')}`;
}

/** CPU used between two readings, per thread group; threads that ended in between count as "ended threads". */
export function cpuBetween(a: ReturnType<typeof threadCpu>, b: ReturnType<typeof threadCpu>): Array<[string, number]> {
  const out = new Map<string, number>();
  for (const [name, s] of b.byName) out.set(name, s - (a.byName.get(name) ?? 0));
  const listed = [...out.values()].reduce((n, s) => n + s, 0);
  out.set('ended threads', b.total - a.total - listed);
  return [...out].filter(([, s]) => s > 0.005).sort((x, y) => y[1] - x[1]);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** The functions with the most self time in a V8 .cpuprofile, as [label, ms], idle excluded. */
export function topSelfTime(file: string, n: number): { sampledMs: number; idleMs: number; top: Array<[string, number]> } {
  const p = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const nodes = new Map(p.nodes.map((x) => [x.id, x]));
  const self = new Map<string, number>();
  let sampledMs = 0;
  let idleMs = 0;
  p.samples.forEach((id, i) => {
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    sampledMs += ms;
    const f = nodes.get(id)!.callFrame;
    if (f.functionName === '(idle)') idleMs += ms;
    const label = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    self.set(label, (self.get(label) ?? 0) + ms);
  });
  self.delete(`(idle) :0`);
  return { sampledMs, idleMs, top: [...self].sort((a, b) => b[1] - a[1]).slice(0, n) };
}
