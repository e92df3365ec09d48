// Helpers for comparing a running service with the reference API's recorded answers.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTool, SHARED, startService, waitForProcessing } from './service.ts';

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

/**
 * One test per fixture: a fresh service fed the fixture answers every golden whose URL matches
 * `routes` as the reference did (only the reference's own tie-order differences are tolerated).
 */
export function testFamilyAgainstGoldens(family: string, routes: string): void {
  for (const fixture of GOLDEN_FIXTURES) {
    test(`${fixture}: ${family} match the reference`, async () => {
      const svc = await startService();
      try {
        await feedFixture(svc.eventUrl, fixture);
        const status = await waitForProcessing(svc.apiUrl);
        assert.equal((status.event_log as { error?: unknown }).error, undefined, 'processing reported an error');
        const r = await diffGoldens(svc.apiUrl, fixture, routes);
        assert.ok(r.passed > 0, 'no golden was compared');
        const unexplained = r.report.filter((x) => !x.ok && !onlyTieOrderDiffs(x.diffs));
        assert.deepEqual(unexplained.map((f) => `${f.url}: ${f.diffs.slice(0, 3).join('; ')}`), []);
      } finally {
        await svc.stop();
      }
    });
  }
}
