// `npx tsx bench/ingest/stage-cpu.ts --file <log.tsv> [--data <dir>] [--keep] [--env K=V] [--node-arg <flag>] [--timeline]`: imports a log into a
// fresh data directory with `import-events` and reads every thread's CPU clock from /proc four times
// a second until the import exits, then prints the CPU per stage in core-seconds and in µs per tx
// (the per-stage budget of issue 32). A thread is classed by its name: the decode workers name
// themselves `decode`, ClickHouse names its pools, the main thread is the process id. Node's other
// threads are all called `node`: those that exist when the process starts are V8's platform
// threads (garbage collection, compilation); those that appear later are libuv's threadpool (where
// chdb's insert and query calls run, so the engine's insert parsing is counted there) and LMDB's
// write thread. It also prints the engine's own counts of rows inserted and merged (from the
// import's stats), and with --timeline each second's cores by stage.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import { ROOT } from '../lib/run-cli.ts';
import { dirBytes } from '../../src/serving/size.ts';
import { describeCounters, type EngineCounters } from '../../src/storage/engine-counters.ts';

const TICKS = 100;

interface ThreadClock {
  comm: string;
  seconds: number;
  firstSeenMs: number;
}

/** The process's resident memory by kind (kB), from /proc/<pid>/status. */
function rss(pid: number): { anon: number; file: number; shmem: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { anon: kb('RssAnon'), file: kb('RssFile'), shmem: kb('RssShmem') };
  } catch {
    return undefined;
  }
}

function readThreads(pid: number, seen: Map<string, ThreadClock>, nowMs: number): void {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return;
  }
  for (const tid of tids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const seconds = (Number(rest[11]) + Number(rest[12])) / TICKS;
    const t = seen.get(tid);
    if (t) {
      t.seconds = seconds;
      t.comm = comm;
    } else seen.set(tid, { comm, seconds, firstSeenMs: nowMs });
  }
}

/** The stage a thread's CPU belongs to. */
function stageOf(tid: string, pid: number, t: ThreadClock, startupMs: number): string {
  if (tid === String(pid)) return 'main thread (apply, batch assembly, serving-store puts)';
  if (t.comm === 'decode') return 'decode workers';
  if (t.comm === 'observer') return 'observer thread (the node\'s POSTs, acks)';
  if (t.comm === 'api') return 'API threads';
  if (t.comm === 'node') return t.firstSeenMs <= startupMs ? 'V8 platform (GC, compiler)' : 'libuv pool + LMDB writer (chdb calls: insert parsing)';
  if (/^MergeMutate|^Merge|^BgSchPool|^BgMoveProc|^BgDistSchPool/.test(t.comm)) return `engine: merges and background (${t.comm.replace(/\d+$/, '')})`;
  return `engine: ${t.comm.replace(/\d+$/, '')}`;
}

/** Short names of the stages, in the timeline's column order (any other stage: 'other'). */
const SHORT: Array<[RegExp, string]> = [[/^main/, 'main'], [/^decode/, 'decode'], [/^V8/, 'v8'], [/^engine/, 'engine'], [/^libuv/, 'uv'], [/^observer/, 'obs'], [/^API/, 'api']];
const shortOf = (stage: string): string => SHORT.find(([re]) => re.test(stage))?.[1] ?? 'other';
const TIMELINE_COLUMNS = [...SHORT.map(([, name]) => name), 'other'];

/** `--timeline`: each second, the cores each stage used in it, so a stretch where the cores idle
 *  (a stage waiting on another) shows beside the totals. */
class Timeline {
  private last = new Map<string, number>();
  private lastMs = 0;
  private printedHeader = false;
  constructor(private readonly pid: number, private readonly startupMs: number) {}

  tick(seen: Map<string, ThreadClock>, nowMs: number): void {
    if (nowMs - this.lastMs < 1000) return;
    const cols = TIMELINE_COLUMNS;
    const used = new Map<string, number>();
    for (const [tid, t] of seen) {
      const k = shortOf(stageOf(tid, this.pid, t, this.startupMs));
      used.set(k, (used.get(k) ?? 0) + t.seconds - (this.last.get(tid) ?? 0));
      this.last.set(tid, t.seconds);
    }
    const span = (nowMs - this.lastMs) / 1000;
    this.lastMs = nowMs;
    if (!this.printedHeader) console.log(`timeline (cores used):   s ${cols.map((c) => c.padStart(7)).join('')}   all`);
    this.printedHeader = true;
    const row = cols.map((c) => ((used.get(c) ?? 0) / span).toFixed(2).padStart(7)).join('');
    const all = [...used.values()].reduce((a, b) => a + b, 0) / span;
    console.log(`timeline (cores used): ${(nowMs / 1000).toFixed(0).padStart(3)} ${row}  ${all.toFixed(2)}`);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { file: { type: 'string' }, data: { type: 'string' }, keep: { type: 'boolean', default: false }, env: { type: 'string', multiple: true }, 'node-arg': { type: 'string', multiple: true }, timeline: { type: 'boolean', default: false } } });
  if (!values.file) throw new Error('usage: stage-cpu.ts --file <log.tsv> [--data <dir>] [--keep] [--env K=V] [--node-arg <flag>] [--timeline]');
  const dataDir = values.data ?? mkdtempSync(join(tmpdir(), 'stage-cpu-'));
  const statsFile = join(dataDir, 'stats.json');
  const extra = Object.fromEntries((values.env ?? []).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  const started = performance.now();
  const child = spawn(process.execPath, [...(values['node-arg'] ?? []), '--import', 'tsx', join(ROOT, 'src/cli/import-events.ts'), '--file', values.file, '--stats-json', statsFile], {
    cwd: ROOT,
    env: { ...process.env, STACKS_API_DATA_DIR: dataDir, ...extra },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const pid = child.pid!;
  const exited = new Promise<number | null>((res) => child.once('exit', res));
  const seen = new Map<string, ThreadClock>();
  // Threads alive within the first 150 ms are V8's platform threads (the loader has not run yet):
  // read every 5 ms until then, as node creates them in its first milliseconds (a first read at
  // 250 ms counted them as libuv's pool, whose share then held V8's collector and compiler).
  const startupMs = 150;
  while (performance.now() - started < startupMs) {
    readThreads(pid, seen, performance.now() - started);
    await new Promise((r) => setTimeout(r, 5));
  }
  const peak = { anon: 0, file: 0, shmem: 0, total: 0 };
  const timeline = values.timeline ? new Timeline(pid, startupMs) : undefined;
  const timer = setInterval(() => {
    readThreads(pid, seen, performance.now() - started);
    timeline?.tick(seen, performance.now() - started);
    const r = rss(pid);
    if (!r) return;
    peak.anon = Math.max(peak.anon, r.anon);
    peak.file = Math.max(peak.file, r.file);
    peak.shmem = Math.max(peak.shmem, r.shmem);
    peak.total = Math.max(peak.total, r.anon + r.file + r.shmem);
  }, 250);
  // The last reading is taken just before the process is reaped: 'exit' fires after it is gone, so
  // read on a short interval and keep the last values (a thread's clock never goes back).
  const code = await exited;
  clearInterval(timer);
  const wall = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`import exited with ${code}`);
  const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as Record<string, number> & { engine?: EngineCounters };
  const byStage = new Map<string, number>();
  for (const [tid, t] of seen) {
    const s = stageOf(tid, pid, t, startupMs);
    byStage.set(s, (byStage.get(s) ?? 0) + t.seconds);
  }
  const total = [...byStage.values()].reduce((a, b) => a + b, 0);
  const txs = stats.txs;
  console.log(`\n${values.file}: ${txs.toLocaleString('en-US')} txs, import wall ${(stats.wallMs / 1000).toFixed(1)} s (${Math.round(txs / (stats.wallMs / 1000)).toLocaleString('en-US')} txs/s), process wall ${wall.toFixed(1)} s, peak RSS ${Math.round(stats.maxRssBytes / 2 ** 20)} MB`);
  console.log(`peak RSS (sampled): ${Math.round(peak.total / 1024)} MB; peak anonymous ${Math.round(peak.anon / 1024)} MB, file-backed ${Math.round(peak.file / 1024)} MB (the serving store's map, libraries), shared ${Math.round(peak.shmem / 1024)} MB`);
  console.log(`stage times: decode wait ${(stats.decodeMs / 1000).toFixed(1)} s, apply ${(stats.applyMs / 1000).toFixed(1)} s, insert ${(stats.insertMs / 1000).toFixed(1)} s (serving ${(stats.servingMs / 1000).toFixed(1)} s)`);
  if (stats.engine) console.log(describeCounters(stats.engine));
  console.log('| stage | core-s | µs per tx |\n|---|---|---|');
  for (const [s, sec] of [...byStage].sort((a, b) => b[1] - a[1])) if (sec >= 0.05) console.log(`| ${s} | ${sec.toFixed(1)} | ${Math.round((sec / txs) * 1e6)} |`);
  console.log(`| all threads (sampled every 250 ms; threads that ended between samples lose their last 250 ms) | ${total.toFixed(1)} | ${Math.round((total / txs) * 1e6)} |`);
  const sizes = ['clickhouse', 'serving', 'events'].filter((d) => existsSync(join(dataDir, d))).map((d) => `${d} ${(dirBytes(join(dataDir, d)) / 2 ** 20).toFixed(1)} MiB`);
  console.log(`on disk: ${sizes.join(', ')} (input ${(statSync(values.file).size / 2 ** 20).toFixed(1)} MiB)`);
  if (!values.keep && !values.data) rmSync(dataDir, { recursive: true, force: true });
  else console.log(`data dir: ${dataDir}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
