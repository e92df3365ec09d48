// A block's v2 txs page is written from lent buffers that go back to a pool once on the socket, and
// tagged by what determines it. Over real HTTP: many pages asked at once get the bodies and tags
// they get one at a time (no page reads another's reused buffer), and a tag gets its 304.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHARED, startService, waitForProcessing } from '../../testing/service.ts';
import { editedFeed } from '../../testing/edited-feed.ts';

test('v2 block txs pages asked at once answer as one at a time, with their own tags and 304s', async () => {
  const svc = await startService();
  try {
    const feed = await editedFeed(svc, join(SHARED, 'fixtures', 'fuzzed-transactions-1.tsv'), () => {});
    await feed(Infinity);
    await waitForProcessing(svc.apiUrl);
    const tip = ((await (await fetch(`${svc.apiUrl}/extended/v2/blocks?limit=1`)).json()) as { results: Array<{ height: number }> }).results[0].height;
    const paths: string[] = [];
    for (let h = 1; h <= tip; h++) {
      paths.push(`/extended/v2/blocks/${h}/transactions?limit=3`);
      for (let offset = 0; offset < 6; offset++) paths.push(`/extended/v2/blocks/${h}/transactions?limit=1&offset=${offset}`);
    }
    const get = async (path: string) => {
      const r = await fetch(`${svc.apiUrl}${path}`);
      return { status: r.status, etag: r.headers.get('etag'), body: await r.text() };
    };
    const one: Array<Awaited<ReturnType<typeof get>>> = [];
    for (const p of paths) one.push(await get(p));
    const pages = one.filter((a) => a.status === 200);
    assert.ok(pages.length >= 20, `${pages.length} pages with txs`);
    assert.equal(new Set(pages.map((a) => a.etag)).size, pages.length, 'a tag per page');
    for (let round = 0; round < 3; round++) {
      const all = await Promise.all(paths.map(get));
      all.forEach((a, i) => assert.deepEqual(a, one[i], `${paths[i]}, asked with the others`));
    }
    const tagged = one.findIndex((a) => a.status === 200);
    const again = await fetch(`${svc.apiUrl}${paths[tagged]}`, { headers: { 'if-none-match': one[tagged].etag! } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), one[tagged].etag);
  } finally {
    await svc.stop();
  }
});
