// /extended/v2/block-tenures/:h/blocks at the tip's height of an epoch-2 chain that reorged there.
// The reference (pg-store-v2 getBlocks) filters on the tenure_height the node reported: epoch-2
// payloads carry none, so no epoch-2 block is in any tenure and the answer is empty with total 0 —
// at the tip's height too, where ours listed the tip (total 1, or 2 with the orphaned sibling).
// Tenure 0 is no filter there (a falsy height): the answer is /extended/v2/blocks'.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHARED, startService } from '../../testing/service.ts';
import { editedFeed } from '../../testing/edited-feed.ts';

const BLOCK_2B = 58776;
const EMPTY = { limit: 20, offset: 0, total: 0, next_cursor: null, prev_cursor: null, cursor: null, results: [] };

test('block-tenures at a reorged epoch-2 tip lists nothing, as at every other epoch-2 height; tenure 0 lists every block', async () => {
  const svc = await startService();
  try {
    const feed = await editedFeed(svc, join(SHARED, 'fixtures', 'mainnet-reorg-scenario2.tsv'), () => {});
    const get = async (path: string) => (await fetch(`${svc.apiUrl}${path}`)).json();
    // Blocks 2a and 2b both at the tip's height 2.
    await feed(BLOCK_2B);
    assert.deepEqual(await get('/extended/v2/block-tenures/2/blocks'), EMPTY);
    await feed(Infinity, BLOCK_2B);
    for (const h of [1, 2, 3, 4]) assert.deepEqual(await get(`/extended/v2/block-tenures/${h}/blocks`), EMPTY, `tenure ${h}`);
    assert.deepEqual(await get('/extended/v2/block-tenures/0/blocks?limit=3'), await get('/extended/v2/blocks?limit=3'));
    // A tenure height beyond Int32 is answered, not an engine error.
    assert.deepEqual(await get('/extended/v2/block-tenures/4294967295/blocks'), EMPTY);
  } finally {
    await svc.stop();
  }
});
