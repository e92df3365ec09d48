// A reorg moves the analytics back: on the recorded reorg (mainnet-reorg-scenario2: block 2a is
// canonical until the fork through 2b outgrows it), 2a alone is edited to carry a 7 STX transfer.
// While 2a is canonical the transfer shows in the series, the flows and the balance history; once
// its fork loses, it is gone from all three, and every series equals the canonical views again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startService, SHARED } from '../../testing/service.ts';
import { editedFeed } from '../../testing/edited-feed.ts';
import { analyticsClient, type SeriesAnswer } from './test-client.ts';

const FIXTURE = join(SHARED, 'fixtures', 'mainnet-reorg-scenario2.tsv');
const BLOCK_2A = 58775;
const BNS_TX = '0x509364abf2e47790a4abf2bff19d50e00001d9c24dda0f6f5b5154fc4bc29a8b';
const SENDER = 'SP20P421F7R0QMGKSSHN2MZ0ZF6V7KD4F6JJHB7R1';
const RECIPIENT = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
const AMOUNT = 7_000_000n;
const TOKEN = 'analytics-reorg-token-0123456789';

interface NodeEvent {
  txid: string;
  type: string;
  event_index: number;
  [k: string]: unknown;
}

const total = (s: SeriesAnswer) => s.results.reduce((n, p) => n + BigInt(p.value), 0n);

test('a reorg takes an orphaned block out of the series, the flows and the balance history', async () => {
  const svc = await startService({ env: { STACKS_API_ANALYTICS_SQL_TOKEN: TOKEN } });
  try {
    const feed = await editedFeed<{ events?: NodeEvent[] }>(svc, FIXTURE, (id, _path, body) => {
      if (id !== BLOCK_2A) return;
      const next = Math.max(...body.events!.map((e) => e.event_index)) + 1;
      body.events!.push({ txid: BNS_TX, type: 'stx_transfer_event', event_index: next, committed: true, stx_transfer_event: { sender: SENDER, recipient: RECIPIENT, amount: AMOUNT.toString(), memo: '' } });
    });
    const api = analyticsClient(svc.apiUrl, TOKEN);
    const snapshot = async () => {
      const [moved, blocks, txs] = await Promise.all(['stx_transferred', 'blocks', 'txs'].map((m) => api.get<SeriesAnswer>(`/chain/series?metric=${m}&interval=day`)));
      const flows = await api.get<{ inbound: { top: Array<{ principal: string; amount: string }> } }>(`/principals/${RECIPIENT}/flows?asset=stx`);
      const series = await api.get<{ results: Array<{ balance: string; stx_received: string }> }>(`/principals/${RECIPIENT}/series?interval=day`);
      const [views] = await api.sql<{ moved: string; txs: string; blocks: string }>(
        `SELECT toString((SELECT sum(amount) FROM sql_stx_events WHERE asset_event_type = 'transfer')) AS moved, toString((SELECT count() FROM sql_txs)) AS txs, toString((SELECT count() FROM sql_blocks)) AS blocks`,
      );
      return {
        moved: total(moved),
        blocks: total(blocks),
        txs: total(txs),
        fromSender: BigInt(flows.inbound.top.find((f) => f.principal === SENDER)?.amount ?? '0'),
        received: series.results.reduce((n, p) => n + BigInt(p.stx_received), 0n),
        balance: BigInt(series.results.at(-1)?.balance ?? '0'),
        views: { moved: BigInt(views.moved), txs: BigInt(views.txs), blocks: BigInt(views.blocks) },
      };
    };

    await feed(BLOCK_2A);
    const before = await snapshot();
    assert.deepEqual({ moved: before.moved, txs: before.txs, blocks: before.blocks }, before.views, 'the series equal the canonical views with 2a canonical');
    assert.ok(before.fromSender >= AMOUNT, "2a's transfer is among the recipient's inflows");

    await feed(Infinity, BLOCK_2A);
    const after = await snapshot();
    assert.deepEqual({ moved: after.moved, txs: after.txs, blocks: after.blocks }, after.views, 'the series equal the canonical views after the reorg');
    assert.equal(before.fromSender - after.fromSender, AMOUNT, "the orphaned transfer left the recipient's inflows");
    assert.equal(before.received - after.received, AMOUNT, "and its received series");
    assert.equal(before.balance - after.balance, AMOUNT, 'and its balance history');
    assert.ok(after.blocks > before.blocks, 'the longer fork has more blocks');
  } finally {
    await svc.stop();
  }
});
