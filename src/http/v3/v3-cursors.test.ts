// The v3 cursor lists against the offset lists they replace, on a generated chain: walking `next`
// from the first page visits every item once, in the offset lists' order, while new blocks arrive
// and a short fork takes the tip and loses it again; a principal's v3 transactions, balances and
// nonces equal its v2/v1 figures; a block's v3 transactions are its v2 transactions; bad and stale
// cursors get a 4xx.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startService, waitForProcessing, type RunningService } from '../../testing/service.ts';
import { buildSyntheticChain, pendingTransfer, postBlocks, type SyntheticChain } from '../address/testing/synthetic-chain.ts';

const BLOCKS = 24;
const FED_FIRST = 12;
const PER_BLOCK = 8;

let svc: RunningService;
let chain: SyntheticChain;

type Page = { total: number; limit: number; cursor: { next: string | null; previous: string | null; current: string | null }; results: Array<Record<string, unknown>> };

async function get<T = Record<string, unknown>>(path: string): Promise<T> {
  const res = await fetch(`${svc.apiUrl}${path}`);
  assert.equal(res.status, 200, `${path}: ${res.status} ${await res.clone().text()}`);
  return (await res.json()) as T;
}

/** Every item of a v3 list, following `next` from the first page. */
async function walk(path: string, limit: number): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let cursor: string | null = null, pages = 0; ; pages++) {
    assert.ok(pages < 1000, `${path}: the walk does not end`);
    const page: Page = await get<Page>(`${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    out.push(...page.results);
    if (!page.cursor.next) return out;
    cursor = page.cursor.next;
  }
}

/** Every item of an offset list. */
async function offsetList(path: string, limit: number): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  const sep = path.includes('?') ? '&' : '?';
  for (;;) {
    const page = await get<{ results: Array<Record<string, unknown>> }>(`${path}${sep}limit=${limit}&offset=${out.length}`);
    out.push(...page.results);
    if (page.results.length < limit) return out;
  }
}

const hash = (s: string): string => `0x${createHash('sha256').update(s).digest('hex')}`;

/** Empty blocks forking off the chain at `from` (its index block hash), `count` long. */
function fork(from: Record<string, unknown>, count: number): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  let parent = from;
  for (let i = 1; i <= count; i++) {
    const h = Number(parent.block_height) + 1;
    const b = { ...parent, block_height: h, block_hash: hash(`fork block ${h}`), index_block_hash: hash(`fork index ${h}`), parent_block_hash: parent.block_hash, parent_index_block_hash: parent.index_block_hash, burn_block_height: Number(parent.burn_block_height) + 1, burn_block_hash: hash(`fork burn ${h}`), events: [], transactions: [] };
    out.push(b);
    parent = b;
  }
  return out;
}

before(async () => {
  chain = await buildSyntheticChain({ blocks: BLOCKS, txsPerBlock: PER_BLOCK });
  svc = await startService();
  await postBlocks(svc.eventUrl, chain.blocks.slice(0, FED_FIRST));
  await waitForProcessing(svc.apiUrl);
});

after(async () => {
  await svc?.stop();
});

test('walking next visits every item once, in offset order, while blocks arrive and a fork comes and goes', async () => {
  const before = {
    chain: (await offsetList('/extended/v1/tx?unanchored=true', 50)).map((t) => t.tx_id),
    principal: (await offsetList(`/extended/v2/addresses/${chain.sender}/transactions`, 50)).map((t) => (t.tx as Record<string, unknown>).tx_id),
  };
  assert.equal(before.chain.length, FED_FIRST * PER_BLOCK);
  const firstPages = await Promise.all([get<Page>('/extended/v3/transactions?limit=5'), get<Page>(`/extended/v3/principals/${chain.sender}/transactions?limit=5`)]);
  // Two empty blocks take the tip, then the longer original chain takes it back, while we walk
  // on from the first pages' cursors.
  const feeding = (async () => {
    await postBlocks(svc.eventUrl, fork(chain.blocks[FED_FIRST - 1], 2));
    await postBlocks(svc.eventUrl, chain.blocks.slice(FED_FIRST));
  })();
  const walked = await Promise.all([
    walkFrom('/extended/v3/transactions', firstPages[0], 5, (t) => t.tx_id),
    walkFrom(`/extended/v3/principals/${chain.sender}/transactions`, firstPages[1], 7, (t) => (t.transaction as Record<string, unknown>).tx_id),
  ]);
  await feeding;
  await waitForProcessing(svc.apiUrl);
  assert.deepEqual(walked[0], before.chain);
  assert.deepEqual(walked[1], before.principal);
  // Once everything is in, a walk from the top is the whole offset list.
  const all = (await offsetList('/extended/v1/tx?unanchored=true', 50)).map((t) => t.tx_id);
  assert.equal(all.length, BLOCKS * PER_BLOCK);
  assert.deepEqual((await walk('/extended/v3/transactions', 13)).map((t) => t.tx_id), all);
});

/** The ids of a walk that starts at `first`'s current cursor. */
async function walkFrom(path: string, first: Page, limit: number, idOf: (item: Record<string, unknown>) => unknown): Promise<unknown[]> {
  assert.ok(first.cursor.current);
  const ids: unknown[] = [];
  for (let cursor: string | null = first.cursor.current; cursor; ) {
    const page: Page = await get<Page>(`${path}?limit=${limit}&cursor=${encodeURIComponent(cursor)}`);
    ids.push(...page.results.map(idOf));
    cursor = page.cursor.next;
  }
  return ids;
}

test("a principal's v3 transactions, balances and nonces are its v2/v1 figures", async () => {
  await waitForProcessing(svc.apiUrl);
  for (const principal of [chain.sender, ...chain.recipients]) {
    const v3 = await walk(`/extended/v3/principals/${principal}/transactions`, 50);
    const v2 = await offsetList(`/extended/v2/addresses/${principal}/transactions`, 50);
    assert.ok(v2.length > 0);
    assert.deepEqual(v3.map((t) => (t.transaction as Record<string, unknown>).tx_id), v2.map((t) => (t.tx as Record<string, unknown>).tx_id), principal);
    assert.deepEqual(v3.map((t) => (t.balance_changes as { stx: Record<string, string> }).stx.sent), v2.map((t) => t.stx_sent));
    const [stx3, stx2] = await Promise.all([get(`/extended/v3/principals/${principal}/balances/stx`), get(`/extended/v2/addresses/${principal}/balances/stx`)]);
    assert.equal(stx3.balance, stx2.balance);
    const [n3, n1] = await Promise.all([get<{ next_nonce: number; last_confirmed_nonce: number | null }>(`/extended/v3/principals/${principal}/nonces`), get<{ possible_next_nonce: number; last_executed_tx_nonce: number | null }>(`/extended/v1/address/${principal}/nonces`)]);
    assert.equal(n3.next_nonce, n1.possible_next_nonce);
    assert.equal(n3.last_confirmed_nonce, n1.last_executed_tx_nonce);
  }
  const spent = chain.txs.reduce((a, t) => a + t.amount + t.fee, 0n);
  assert.equal((await get(`/extended/v3/principals/${chain.sender}/balances/stx`)).balance, (chain.minted - spent).toString());
});

test("a block's v3 transactions are its v2 transactions, newest first", async () => {
  for (const height of [1, 7, BLOCKS]) {
    const v3 = await walk(`/extended/v3/blocks/${height}/transactions`, 3);
    const v2 = await offsetList(`/extended/v2/blocks/${height}/transactions`, 50);
    assert.equal(v3.length, PER_BLOCK);
    assert.deepEqual(v3.map((t) => t.tx_id), v2.map((t) => t.tx_id).reverse());
  }
});

test('cursors past the data, malformed or naming a whole block', async () => {
  // A cursor is a place in the chain: one above the tip lists from the newest tx, one below the
  // first block lists nothing.
  const top = await get<Page>('/extended/v3/transactions?cursor=999999:0:0&limit=3');
  assert.equal(top.results[0].tx_id, (await get<Page>('/extended/v3/transactions?limit=1')).results[0].tx_id);
  const none = await get<Page>('/extended/v3/transactions?cursor=0:0:0');
  assert.deepEqual(none.results, []);
  assert.equal(none.total, 0);
  // `h:0:0` is the start of block h.
  const block = await get<Page>('/extended/v3/transactions?cursor=5:0:0&limit=1');
  assert.equal(block.cursor.current, `5:2147483647:${PER_BLOCK - 1}`);
  for (const bad of ['1:2', 'x', '1:2:3:4']) {
    const res = await fetch(`${svc.apiUrl}/extended/v3/transactions?cursor=${bad}`);
    assert.equal(res.status, 400, bad);
    assert.equal(((await res.json()) as { code: string }).code, 'FST_ERR_VALIDATION');
  }
});

test('the STX supply is the v1 figure in micro-STX', async () => {
  const [v3, v1] = await Promise.all([get<{ total: string; projected_total_2050: string }>('/extended/v3/tokens/stx/supply'), get<{ unlocked_stx: string }>('/extended/v1/stx_supply')]);
  assert.equal(v3.total, v1.unlocked_stx.replace('.', '').replace(/^0+(?=\d)/, ''));
  assert.equal(v3.total, chain.minted.toString());
  assert.equal(v3.projected_total_2050, '2318000000000000');
  // A chain without PoX cycles has no current one.
  const res = await fetch(`${svc.apiUrl}/extended/v3/staking/cycles/current/signers`);
  assert.equal(res.status, 404);
});

test('a pending tx: in the v3 mempool lists, looked up as a mempool tx, in the nonces', async () => {
  const nonce = chain.txs.length;
  const pending = await Promise.all([pendingTransfer(nonce, chain.recipients[0], 5n), pendingTransfer(nonce + 1, chain.recipients[1], 6n)]);
  const res = await fetch(`${svc.eventUrl}/new_mempool_tx`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pending.map((p) => p.raw_tx)) });
  assert.equal(res.status, 200);
  await waitForProcessing(svc.apiUrl);
  const ids = pending.map((p) => p.tx_id).sort();
  const list = await walk('/extended/v3/mempool/transactions', 1);
  assert.deepEqual(list.map((t) => t.tx_id).sort(), ids);
  assert.ok(list.every((t) => t.status === 'pending' && t.receipt_block_height === BLOCKS && (t.sender as { address: string }).address === chain.sender));
  // Newest receipt first, ties by tx id descending: the two arrived together.
  assert.deepEqual(list.map((t) => t.tx_id), [...ids].reverse());
  const mine = await get<Page>(`/extended/v3/principals/${chain.recipients[1]}/mempool/transactions`);
  assert.deepEqual(mine.results.map((t) => t.tx_id), [pending[1].tx_id]);
  const one = await get(`/extended/v3/transactions/${pending[0].tx_id}`);
  assert.equal(one.status, 'pending');
  assert.equal(one.receipt_block_height, BLOCKS);
  assert.deepEqual(one.token_transfer, { recipient: chain.recipients[0], amount: '5', memo: { hex: `0x${Buffer.from('pending').toString('hex').padEnd(68, '0')}`, repr: 'pending' } });
  const nonces = await get<{ next_nonce: number; mempool: { last_nonce: number; pending_nonces: number[]; missing_nonces: number[] } }>(`/extended/v3/principals/${chain.sender}/nonces`);
  const v1 = await get<{ last_mempool_tx_nonce: number; detected_mempool_nonces: number[]; detected_missing_nonces: number[] }>(`/extended/v1/address/${chain.sender}/nonces`);
  assert.equal(nonces.next_nonce, nonce + 2);
  assert.equal(nonces.mempool.last_nonce, nonce + 1);
  assert.deepEqual(nonces.mempool, { last_nonce: v1.last_mempool_tx_nonce, pending_nonces: v1.detected_mempool_nonces, missing_nonces: v1.detected_missing_nonces });
});
