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
