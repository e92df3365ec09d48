// /analytics in headless Chromium: the page loads its chart library from this service (no other
// network), fetches the analytics endpoints and draws. Each chart records what it drew; the test
// compares that with the endpoints' answers and checks that the series' colour is on the canvas.
// The screenshot goes to a temporary file (STACKS_ANALYTICS_SCREENSHOT=<path> keeps it, as
// docs/analytics-dashboard.png was made).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fedService } from '../../testing/goldens.ts';
import { tempDataDir } from '../../testing/service.ts';
import { ANALYTICS_TEST_ENV } from './test-client.ts';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p)) ?? 'chromium';

/** Runs headless Chromium on a URL with the given output flag; its stdout. Killed after 60 s. */
function chromium(url: string, output: string[]): Promise<string> {
  const profile = tempDataDir('chromium-');
  return new Promise((resolve, reject) => {
    const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', `--user-data-dir=${profile}`, '--window-size=1280,1500', '--virtual-time-budget=20000', ...output, url];
    const child = spawn(CHROMIUM, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`chromium exited with ${code}: ${err.slice(-2000)}`));
    });
  });
}

/** data-* attributes of the element with this id in the dumped DOM. */
function dataOf(dom: string, id: string): Record<string, string> {
  const tag = new RegExp(`<[^>]*\\bid="${id}"[^>]*>`).exec(dom)?.[0] ?? '';
  return Object.fromEntries([...tag.matchAll(/data-([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

test('the /analytics dashboard draws its charts from the endpoints in headless Chromium', async () => {
  // The analytics test's fed store, when the run keeps one.
  const svc = await fedService('poisonmicroblock', ANALYTICS_TEST_ENV);
  try {
    const get = async <T>(path: string) => (await (await fetch(`${svc.apiUrl}/extended/analytics/v1${path}`)).json()) as T;
    type Series = { results: Array<{ value: string }> };
    const [txs, senders, top, tokens] = await Promise.all([
      get<Series>('/chain/series?metric=txs&interval=day'),
      get<Series>('/chain/series?metric=active_senders&interval=day'),
      get<{ results: Array<{ value: string }> }>('/contracts/top?by=calls&limit=10'),
      get<{ results: Array<{ asset: string }> }>('/tokens/ft/top?by=transfers&limit=1'),
    ]);
    assert.ok(top.results.length > 0 && tokens.results.length > 0, 'the fixture has contract calls and token transfers');
    const distribution = await get<{ buckets: Array<{ holders: number }> }>(`/tokens/ft/${encodeURIComponent(tokens.results[0].asset)}/distribution`);
    const page = await fetch(`${svc.apiUrl}/analytics`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);

    const dom = await chromium(`${svc.apiUrl}/analytics`, ['--dump-dom']);
    const body = /<body([^>]*)>/.exec(dom)?.[1] ?? '';
    assert.match(body, /data-ready="1"/, 'the page finished');
    assert.doesNotMatch(body, /data-error/, `no error: ${body}`);
    const sum = (s: { results: Array<{ value: string }> }) => s.results.reduce((n, p) => n + Number(p.value), 0);
    const expect = (id: string, points: number, total: number) => {
      const d = dataOf(dom, id);
      assert.equal(Number(d.points), points, `${id} points`);
      assert.equal(Number(d.total), total, `${id} total`);
      assert.ok(Number(d['series-pixels']) > 20, `${id} drew its series (${d['series-pixels']} pixels)`);
    };
    expect('chart-txs', txs.results.length, sum(txs));
    expect('chart-senders', senders.results.length, sum(senders));
    expect('chart-contracts', top.results.length, sum(top));
    expect('chart-holders', distribution.buckets.length, distribution.buckets.reduce((n, b) => n + b.holders, 0));
    assert.equal(dataOf(dom, 'chart-holders').asset, tokens.results[0].asset.replace(/&/g, '&amp;'));

    const shot = process.env.STACKS_ANALYTICS_SCREENSHOT ?? join(tempDataDir('shot-'), 'dashboard.png');
    await chromium(`${svc.apiUrl}/analytics`, [`--screenshot=${shot}`]);
    assert.ok(statSync(shot).size > 10_000, 'a screenshot was written');
    assert.deepEqual([...readFileSync(shot).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'as a PNG');
  } finally {
    await svc.stop();
  }
});
