// Helpers for comparing a running service with the reference API's recorded answers.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { test } from 'node:test';
import assert from 'node:assert/strict';
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

export interface GoldenReport {
  passed: number;
  failed: number;
  report: Array<{ url: string; ok: boolean; diffs: string[] }>;
}

export async function feedFixture(eventUrl: string, fixture: string): Promise<void> {
  const fed = await runTool('feed-events.mjs', [join(SHARED, 'fixtures', `${fixture}.tsv`), '--url', eventUrl]);
  if (fed.code !== 0) throw new Error(`feeding ${fixture} failed:\n${fed.output}`);
}

/**
 * A service with the fixture fed as the goldens were made, processing done. Under `npm test` the
 * first test of a run that needs a fixture (with the same environment) feeds it; later ones start on
 * a copy of that data directory instead of feeding it again — the goldens are reads, and a restarted
 * service answers as the one that ingested.
 */
export async function fedService(fixture: string, env: Record<string, string> = {}): Promise<RunningService> {
  const root = keptRoot();
  if (!root) {
    // Nothing is kept: the service that ingested answers.
    const svc = await startService({ env });
    await feedFixture(svc.eventUrl, fixture);
    await waitForProcessing(svc.apiUrl);
    return svc;
  }
  const name = `${fixture}-${createHash('sha256').update(JSON.stringify(env)).digest('hex').slice(0, 12)}`;
  const dataDir = await keptCopy(root, name, async (dir) => {
    const svc = await startService({ dataDir: dir, env });
    try {
      await feedFixture(svc.eventUrl, fixture);
      await waitForProcessing(svc.apiUrl);
    } finally {
      await svc.stop();
    }
  });
  const svc = await startService({ dataDir, env });
  await waitForProcessing(svc.apiUrl);
  return svc;
}

export async function diffGoldens(apiUrl: string, fixture: string, match: string): Promise<GoldenReport> {
  const dir = mkdtempSync(join(tmpdir(), 'diff-'));
  const out = join(dir, 'report.json');
  try {
    await runTool('diff-goldens.mjs', [apiUrl, join(SHARED, 'goldens', `${fixture}.jsonl.gz`), '--match', match, '--json', out]);
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

interface Golden {
  url: string;
  status: number;
  body: unknown;
}

function readGoldenFile(fixture: string): Map<string, Golden> {
  const text = gunzipSync(readFileSync(join(SHARED, 'goldens', `${fixture}.jsonl.gz`))).toString('utf8');
  return new Map(text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Golden).map((g) => [g.url, g]));
}

/** diff-goldens' rule: every golden field present in ours and equal (arrays in order). */
function matches(golden: unknown, ours: unknown): boolean {
  if (golden === null || typeof golden !== 'object') return golden === ours;
  if (Array.isArray(golden)) return Array.isArray(ours) && golden.length === ours.length && golden.every((g, i) => matches(g, ours[i]));
  if (ours === null || typeof ours !== 'object' || Array.isArray(ours)) return false;
  return Object.entries(golden).every(([k, v]) => k in ours && matches(v, (ours as Record<string, unknown>)[k]));
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

/**
 * One test per fixture: a service fed the fixture answers every golden whose URL matches
 * `routes` as the reference did. Tolerated: the reference's own tie-order differences, and for URLs
 * matching `unorderedResults` (lists the reference answers in no defined order while its golden is
 * not marked unordered) the same results in another order.
 */
export function testFamilyAgainstGoldens(family: string, routes: string, unorderedResults?: RegExp): void {
  for (const fixture of GOLDEN_FIXTURES) {
    test(`${fixture}: ${family} match the reference`, async () => {
      const svc = await fedService(fixture);
      try {
        const status = await waitForProcessing(svc.apiUrl);
        assert.equal((status.event_log as { error?: unknown }).error, undefined, 'processing reported an error');
        const r = await diffGoldens(svc.apiUrl, fixture, routes);
        assert.ok(r.passed > 0, 'no golden was compared');
        const goldens = unorderedResults ? readGoldenFile(fixture) : new Map<string, Golden>();
        const unexplained: string[] = [];
        for (const f of r.report.filter((x) => !x.ok && !onlyTieOrderDiffs(x.diffs))) {
          const golden = goldens.get(f.url);
          if (golden && unorderedResults?.test(f.url)) {
            const res = await fetch(`${svc.apiUrl}${f.url}`);
            if (res.status === golden.status && sameUpToResultOrder(golden.body, await res.json())) continue;
          }
          unexplained.push(`${f.url}: ${f.diffs.slice(0, 3).join('; ')}`);
        }
        assert.deepEqual(unexplained, []);
      } finally {
        await svc.stop();
      }
    });
  }
}
