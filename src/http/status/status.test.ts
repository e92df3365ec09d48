// /extended's chain_tip.burn_block_height when burn blocks arrive after the last Stacks block. The
// reference keeps it in its chain_tip row: a block inserted as canonical sets it to the block's
// burn height (pg-write-store update), every /new_burn_block raises it to at least its own height
// (updateBurnChainBlockHeight, GREATEST). Fed here from the fork fixture's rows, with the burn
// block at 693422 delivered before block 5 (burn height 693421), which sets it back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, waitForProcessing } from '../../testing/service.ts';
import { forkFixtureRows } from '../../testing/fork-fixture.ts';

test('chain_tip.burn_block_height: the tip block\'s burn height, raised by burn blocks that arrived after it', async () => {
  const svc = await startService();
  try {
    const rows = await forkFixtureRows();
    const post = async (pick: (r: (typeof rows)[number]) => boolean) => {
      const r = rows.find(pick)!;
      const res = await fetch(`${svc.eventUrl}${r.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: r.payload });
      assert.equal(res.status, 200);
      await waitForProcessing(svc.apiUrl);
    };
    const burnHeight = async () => ((await (await fetch(`${svc.apiUrl}/extended`)).json()) as { chain_tip: { burn_block_height: number } }).chain_tip.burn_block_height;
    const isBurn = (h: number) => (r: (typeof rows)[number]) => r.path === '/new_burn_block' && JSON.parse(r.payload).burn_block_height === h;
    const isBlock = (h: number) => (r: (typeof rows)[number]) => r.path === '/new_block' && JSON.parse(r.payload).block_height === h;
    for (const r of rows.filter((x) => x.path !== '/new_burn_block' && !isBlock(5)(x))) await post((x) => x === r);
    assert.equal(await burnHeight(), 693420, 'block 4');
    await post(isBurn(693421));
    assert.equal(await burnHeight(), 693421, 'a burn block after the tip');
    await post(isBurn(693422));
    assert.equal(await burnHeight(), 693422);
    await post(isBlock(5));
    assert.equal(await burnHeight(), 693421, 'block 5 sets it to its own burn height');
    await post(isBurn(693423));
    assert.equal(await burnHeight(), 693423, 'the last burn block, after the last Stacks block');
  } finally {
    await svc.stop();
  }
});

/** The engine reads /extended's family has made (the `info` family's query count). */
async function infoQueries(apiUrl: string): Promise<number> {
  const text = await (await fetch(`${apiUrl}/metrics`)).text();
  const m = /^stacks_clickhouse_query_duration_seconds_count\{family="info",result="ok"\} (\d+)/m.exec(text);
  return m ? Number(m[1]) : 0;
}

test('/extended polled while nothing is processed reads the engine once; the next batch reads it again', async () => {
  // One API thread: each thread keeps its own tip, and the polls must all reach the same one.
  const svc = await startService({ env: { STACKS_API_THREADS: '1' } });
  try {
    const rows = await forkFixtureRows();
    const post = async (r: (typeof rows)[number]) => {
      const res = await fetch(`${svc.eventUrl}${r.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: r.payload });
      assert.equal(res.status, 200);
      await waitForProcessing(svc.apiUrl);
    };
    const blocks = rows.filter((r) => r.path === '/new_block');
    await post(blocks[0]);
    const tip = async () => ((await (await fetch(`${svc.apiUrl}/extended`)).json()) as { chain_tip: { block_height: number } }).chain_tip.block_height;
    const first = await tip();
    const before = await infoQueries(svc.apiUrl);
    for (let i = 0; i < 20; i++) assert.equal(await tip(), first);
    assert.equal(await infoQueries(svc.apiUrl), before, 'twenty polls, no engine read');
    await post(blocks[1]);
    assert.equal(await tip(), JSON.parse(blocks[1].payload).block_height, 'the next block is seen');
    assert.ok((await infoQueries(svc.apiUrl)) > before);
  } finally {
    await svc.stop();
  }
});
