// Helpers for comparing a running service with the reference API's recorded answers.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runTool, SHARED, startService, waitForProcessing, type RunningService } from './service.ts';
import { keptCopy, keptRoot } from './kept-copy.ts';

export const GOLDEN_FIXTURES = [
  'fuzzed-transactions-1',
  'mainnet-block0',
  'mainnet-out-of-order-microblock',
  'mainnet-reorg-scenario2',
  'mocknet',
  'poisonmicroblock',
  'regtest-env-pox-4-out-of-order-multisig-tx',
  'regtest-env-pox-4-stack-stx-in-reward-phase-S1',
  'regtest-env-pox-4-stack-stx-in-reward-phase-S2',
  'regtest-env-pox-4-stack-stx-in-reward-phase-S3',
];

/** The fixtures the reference v9's /extended/v3 answers were recorded on (../shared/goldens-v3). */
export const V3_GOLDEN_FIXTURES = [
  'mainnet-reorg-scenario2',
  'mocknet',
  'poisonmicroblock',
  'regtest-env-pox-4-out-of-order-multisig-tx',
  'regtest-env-pox-4-stack-stx-in-reward-phase-S3',
];

/** Which recorded answers: the reference v8's (goldens) or its v9's /extended/v3 (goldens-v3). */
export type GoldenSet = 'goldens' | 'goldens-v3';

export interface GoldenReport {
  passed: number;
  failed: number;
  report: GoldenComparison[];
}

/** POSTs a log file to the observer as a node would (../shared/tools/feed-events.mjs). */
export async function feedLog(eventUrl: string, file: string): Promise<void> {
  const fed = await runTool('feed-events.mjs', [file, '--url', eventUrl]);
  if (fed.code !== 0) throw new Error(`feeding ${file} failed:\n${fed.output}`);
}

export function feedFixture(eventUrl: string, fixture: string): Promise<void> {
  return feedLog(eventUrl, join(SHARED, 'fixtures', `${fixture}.tsv`));
}

/**
 * A service with the fixture fed as the goldens were made, processing done. Under `npm test` the
 * first test of a run that needs a fixture (with the same environment) feeds it; later ones start on
 * a copy of that data directory instead of feeding it again — the goldens are reads, and a restarted
 * service answers as the one that ingested.
 */
export function fedService(fixture: string, env: Record<string, string> = {}): Promise<RunningService> {
  return serviceFedWith(fixture, (eventUrl) => feedFixture(eventUrl, fixture), env);
}

/** fedService for a log `feed` posts (kept under `name`). */
export async function serviceFedWith(name: string, feed: (eventUrl: string) => Promise<void>, env: Record<string, string> = {}): Promise<RunningService> {
  const root = keptRoot();
  if (!root) {
    // Nothing is kept: the service that ingested answers.
    const svc = await startService({ env });
    await feed(svc.eventUrl);
    await waitForProcessing(svc.apiUrl);
    return svc;
  }
  const kept = `${name}-${createHash('sha256').update(JSON.stringify(env)).digest('hex').slice(0, 12)}`;
  const dataDir = await keptCopy(root, kept, async (dir) => {
    const svc = await startService({ dataDir: dir, env });
    try {
      await feed(svc.eventUrl);
      await waitForProcessing(svc.apiUrl);
    } finally {
      await svc.stop();
    }
  });
  const svc = await startService({ dataDir, env });
  await waitForProcessing(svc.apiUrl);
  return svc;
}

export async function diffGoldens(apiUrl: string, fixture: string, match: string, set: GoldenSet = 'goldens'): Promise<GoldenReport> {
  const dir = mkdtempSync(join(tmpdir(), 'diff-'));
  const out = join(dir, 'report.json');
  try {
    await runTool('diff-goldens.mjs', [apiUrl, join(SHARED, set, `${fixture}.jsonl.gz`), '--match', match, '--json', out]);
    return JSON.parse(readFileSync(out, 'utf8')) as GoldenReport;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The one known difference: a list whose items equal the golden's as a multiset and differ only
 * where the reference orders items with equal sort keys by Postgres row placement.
 */
export function onlyTieOrderDiffs(diffs: string[]): boolean {
  const swaps = diffs.map((d) => /^(.*\.txs)\[(\d+)\]: expected "(0x[0-9a-f]+)" got "(0x[0-9a-f]+)"$/.exec(d));
  if (swaps.some((m) => !m)) return false;
  // Every expected id must appear as a got id in the same list, and vice versa.
  const byList = new Map<string, { expected: string[]; got: string[] }>();
  for (const m of swaps as RegExpExecArray[]) {
    const e = byList.get(m[1]) ?? { expected: [], got: [] };
    e.expected.push(m[3]);
    e.got.push(m[4]);
    byList.set(m[1], e);
  }
  return [...byList.values()].every((l) => [...l.expected].sort().join() === [...l.got].sort().join());
}

export interface Golden {
  url: string;
  status: number;
  body: unknown;
  wallclock?: boolean;
}

/** A fixture's recorded answers by URL (the last one where a URL was recorded more than once). */
export function readGoldenFile(fixture: string, set: GoldenSet = 'goldens'): Map<string, Golden> {
  const text = gunzipSync(readFileSync(join(SHARED, set, `${fixture}.jsonl.gz`))).toString('utf8');
  return new Map(text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Golden).map((g) => [g.url, g]));
}

/** diff-goldens' rule: every golden field present in ours and equal (arrays in order), but for
 *  the fields `skipped` names. */
export function matches(golden: unknown, ours: unknown, skipped: (key: string) => boolean = () => false): boolean {
  if (golden === null || typeof golden !== 'object') return golden === ours;
  if (Array.isArray(golden)) return Array.isArray(ours) && golden.length === ours.length && golden.every((g, i) => matches(g, ours[i], skipped));
  if (ours === null || typeof ours !== 'object' || Array.isArray(ours)) return false;
  return Object.entries(golden).every(([k, v]) => skipped(k) || (k in ours && matches(v, (ours as Record<string, unknown>)[k], skipped)));
}

/** True when ours equals the golden with `results` compared as a multiset. */
export function sameUpToResultOrder(golden: unknown, ours: unknown): boolean {
  const g = golden as { results?: unknown[] };
  const o = ours as { results?: unknown[] };
  if (!Array.isArray(g?.results) || !Array.isArray(o?.results) || g.results.length !== o.results.length) return false;
  const left = [...o.results];
  for (const item of g.results) {
    const i = left.findIndex((x) => matches(item, x));
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return matches({ ...g, results: [] }, { ...o, results: [] });
}

/** One entry of diff-goldens' report: a recorded request and how our answer differed. */
export interface GoldenComparison {
  url: string;
  ok: boolean;
  diffs: string[];
}

/** What a family's check may read: the service that answered and the fixture's recorded answers. */
export interface GoldenContext {
  apiUrl: string;
  fixture: string;
  goldens: Map<string, Golden>;
}

/**
 * A route family's acceptance check against the reference's recorded answers, run by
 * src/http/goldens/goldens.test.ts on one service per fixture. A failed comparison is a defect unless
 * `unexplained` says otherwise (the default tolerates only the reference's own tie order, and
 * for URLs matching `unorderedResults` the same results in another order).
 */
export interface GoldenFamily {
  name: string;
  /** The URLs of the family's recorded answers. */
  routes: RegExp;
  /** Lists the reference answers in no defined order while its golden is not marked unordered. */
  unorderedResults?: RegExp;
  /** Why a failed comparison is a defect, or undefined when it is the reference's nondeterminism. */
  unexplained?: (failure: GoldenComparison, ctx: GoldenContext) => Promise<string | undefined>;
  /** Problems found beyond the field-by-field comparison (e.g. Mesh shapes). */
  extraProblems?: (compared: GoldenComparison[], ctx: GoldenContext) => Promise<string[]>;
}

async function defaultUnexplained(family: GoldenFamily, f: GoldenComparison, ctx: GoldenContext): Promise<string | undefined> {
  if (onlyTieOrderDiffs(f.diffs)) return undefined;
  const golden = ctx.goldens.get(f.url);
  if (golden && family.unorderedResults?.test(f.url)) {
    const res = await fetch(`${ctx.apiUrl}${f.url}`);
    if (res.status === golden.status && sameUpToResultOrder(golden.body, await res.json())) return undefined;
  }
  return f.diffs.slice(0, 3).join('; ');
}

/** The family's problems in one fixture's comparison report (empty when it matches the reference). */
export async function familyProblems(family: GoldenFamily, report: GoldenComparison[], ctx: GoldenContext): Promise<string[]> {
  const compared = report.filter((x) => family.routes.test(x.url));
  if (!compared.some((x) => x.ok)) return [`no golden of ${family.routes.source} was compared and matched`];
  const problems: string[] = [];
  for (const f of compared.filter((x) => !x.ok)) {
    const why = family.unexplained ? await family.unexplained(f, ctx) : await defaultUnexplained(family, f, ctx);
    if (why !== undefined) problems.push(`${f.url}: ${why}`);
  }
  if (family.extraProblems) problems.push(...(await family.extraProblems(compared, ctx)));
  return problems;
}
