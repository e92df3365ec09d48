// Test helper: two services that ingested the same log answer alike, on the golden URLs of the
// route families the serving store answers.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { SHARED } from './service.ts';

const SERVED = /^\/extended\/v1\/(tx|block|address)|^\/extended\/v2\/(blocks|addresses)/;

/** The golden URLs of `fixture` in the families the serving store answers. */
export function servedUrls(fixture: string): string[] {
  const text = gunzipSync(readFileSync(join(SHARED, 'goldens', `${fixture}.jsonl.gz`))).toString('utf8');
  const all = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { url: string; method?: string });
  return [...new Set(all.filter((g) => (g.method ?? 'GET') === 'GET' && SERVED.test(g.url)).map((g) => g.url))];
}

/** Asserts that both services answer every URL alike; resolves with how many were compared. */
export async function assertSameAnswers(expectedUrl: string, actualUrl: string, urls: string[]): Promise<number> {
  let same = 0;
  for (const url of urls) {
    const [a, b] = await Promise.all([fetch(expectedUrl + url, { redirect: 'manual' }), fetch(actualUrl + url, { redirect: 'manual' })]);
    assert.equal(b.status, a.status, url);
    assert.deepEqual(await b.json().catch(() => null), await a.json().catch(() => null), url);
    same++;
  }
  return same;
}

/** A counter or gauge of the service's /metrics. */
export async function metricValue(apiUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${apiUrl}/metrics`)).text();
  const m = new RegExp(`^${name} (\\d+)`, 'm').exec(text);
  assert.ok(m, `${name} is exported`);
  return Number(m[1]);
}
