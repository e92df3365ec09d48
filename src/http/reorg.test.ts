// Reorgs in the secondary families, on the recorded reorg (mainnet-reorg-scenario2: block 2a is
// canonical until block 3 builds on its sibling 2b). The log is edited so that 2a alone carries a
// BNS name registration, an NFT transfer of that name and an STX mint; once 2b's fork wins, the name
// is gone, the transfer is undone and the supply no longer counts the mint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startService, SHARED } from '../testing/service.ts';
import { editedFeed } from '../testing/edited-feed.ts';

const FIXTURE = join(SHARED, 'fixtures', 'mainnet-reorg-scenario2.tsv');
const BLOCK_2A = 58775;
const BLOCK_2B = 58776;
const BNS_TX = '0x509364abf2e47790a4abf2bff19d50e00001d9c24dda0f6f5b5154fc4bc29a8b';
const REGISTRANT = 'SP20P421F7R0QMGKSSHN2MZ0ZF6V7KD4F6JJHB7R1';
const RECIPIENT = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
const NAME_NFT = '0x0c00000002046e616d65020000000967656e6f6d65333630096e616d6573706163650200000003627463';
const MINTED = 5_000_000n;

interface NodeEvent {
  txid: string;
  type: string;
  event_index: number;
  committed?: boolean;
  [k: string]: unknown;
}

/** 2a: the name NFT then moves to RECIPIENT and 5 STX are minted; 2b: no BNS print nor name mint. */
function edit(id: number, body: { events?: NodeEvent[] }): void {
  const events = body.events!;
  if (id === BLOCK_2A) {
    const next = Math.max(...events.map((e) => e.event_index)) + 1;
    events.push(
      { txid: BNS_TX, type: 'nft_transfer_event', event_index: next, committed: true, nft_transfer_event: { asset_identifier: 'SP000000000000000000002Q6VF78.bns::names', sender: REGISTRANT, recipient: RECIPIENT, raw_value: NAME_NFT } },
      { txid: BNS_TX, type: 'stx_mint_event', event_index: next + 1, committed: true, stx_mint_event: { recipient: RECIPIENT, amount: MINTED.toString() } },
    );
  }
  if (id === BLOCK_2B) body.events = events.filter((e) => !(e.txid === BNS_TX && (e.type === 'contract_event' || e.type === 'nft_mint_event')));
}

test('a reorg removes a name registered, an NFT transfer and STX minted only in the orphaned block', async () => {
  const svc = await startService();
  try {
    const feed = await editedFeed<{ events?: NodeEvent[] }>(svc, FIXTURE, (id, path, body) => {
      if (path === '/new_block') edit(id, body);
    });
    const get = async (path: string) => {
      const res = await fetch(`${svc.apiUrl}${path}`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const holdings = async (p: string) => ((await get(`/extended/v1/tokens/nft/holdings?principal=${p}`)).body.results as Array<{ value: { hex: string } }>).map((h) => h.value.hex);
    const supplyAt = async (h: number) => BigInt(Math.round(Number((await get(`/extended/v1/stx_supply?height=${h}`)).body.total_stx) * 1e6));

    await feed(BLOCK_2A);
    assert.equal((await get('/v1/names/genome360.btc')).status, 200, 'registered in 2a');
    assert.deepEqual(await holdings(RECIPIENT), [NAME_NFT], 'transferred in 2a');
    assert.deepEqual(await holdings(REGISTRANT), []);
    const before = await supplyAt(2);

    await feed(Infinity, BLOCK_2A);
    assert.equal(((await get('/extended')).body.chain_tip as { block_height: number }).block_height, 4);
    assert.deepEqual(await get('/v1/names/genome360.btc'), { status: 404, body: { error: 'cannot find name genome360.btc' } });
    assert.deepEqual((await get('/v1/names')).body, []);
    assert.deepEqual(await holdings(RECIPIENT), [], 'the transfer is undone');
    assert.deepEqual(await holdings(REGISTRANT), [], 'nor was the name minted on the winning fork');
    assert.equal(before - (await supplyAt(2)), MINTED, "the orphaned block's mint left the supply");
    const holders = (await get('/extended/v1/tokens/ft/stx/holders?limit=200')).body.results as Array<{ address: string; balance: string }>;
    assert.equal(holders.find((h) => h.address === RECIPIENT)?.balance, '0', "the orphaned mint left the recipient's STX balance");
  } finally {
    await svc.stop();
  }
});
