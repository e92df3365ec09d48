// A decode task of several entries leaves out the mempool documents of txs that a later block of
// the same task mines, and the processor renders the ones a batch still needs (a real fixture).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHARED } from '../testing/service.ts';
import { readTsvRows } from '../ingest/tsv/read-tsv.ts';
import { decodeEntriesMovable, decodeEventMovable } from './decode-event.ts';
import { mempoolDoc } from './serving/served-rows.ts';
import { ServingChanges } from '../serving/changes.ts';
import { completeMempoolDocs } from '../ingest/processor/apply-mempool.ts';
import type { DecodedEvent } from './decoded.ts';

type Entry = { path: string; body: Uint8Array };

async function fixtureEntries(name: string): Promise<Entry[]> {
  const out: Entry[] = [];
  for await (const r of readTsvRows(join(SHARED, 'fixtures', name))) out.push({ path: r.path, body: Buffer.from(r.payload) });
  return out;
}

const eventOf = (o: ReturnType<typeof decodeEntriesMovable>['outcomes'][number]): DecodedEvent => {
  assert.ok(o.ok);
  return o.event;
};

test('a mempool tx mined later in the same task gets no document; every other one gets its own', async () => {
  const entries = await fixtureEntries('regtest-env-pox-4-out-of-order-multisig-tx.tsv');
  const { outcomes } = decodeEntriesMovable(entries, true);
  const events = outcomes.map(eventOf);
  let skipped = 0;
  let rendered = 0;
  events.forEach((ev, i) => {
    if (ev.kind !== 'mempool') return;
    const minedLater = new Set(events.slice(i + 1).flatMap((e) => (e.kind === 'block' ? e.txs.map((t) => t.tx_id) : [])));
    ev.txs.forEach((t, k) => {
      if (minedLater.has(t.tx_id)) {
        assert.equal(ev.docs[k], null, `${t.tx_id} is mined later in the task`);
        skipped++;
      } else {
        assert.deepEqual(ev.docs[k], mempoolDoc(t.tx_id, t.raw_tx), `${t.tx_id} is not mined later in the task`);
        rendered++;
      }
    });
  });
  assert.ok(skipped > 0, 'the fixture has announced txs mined later');
  // Alone in their tasks, every announced tx has its document.
  for (const [i, e] of entries.entries()) {
    if (e.path !== '/new_mempool_tx') continue;
    const ev = eventOf(decodeEntriesMovable([e], true).outcomes[0]);
    assert.ok(ev.kind === 'mempool' && ev.docs.length > 0 && ev.docs.every((d) => d !== null), `entry ${i}`);
  }
  // Without the serving store: no documents at all.
  const plain = decodeEntriesMovable(entries, false).outcomes.map(eventOf);
  assert.ok(plain.every((ev) => ev.kind !== 'mempool' || ev.docs.length === 0));
  assert.ok(rendered + skipped > 0);
});

test('a batch renders the documents it lacks, unless it mines the tx after announcing it', async () => {
  const announced = (await fixtureEntries('regtest-env-pox-4-out-of-order-multisig-tx.tsv')).find((e) => e.path === '/new_mempool_tx')!;
  const raw = (JSON.parse(Buffer.from(announced.body).toString()) as string[])[0];
  const ids = ['0x' + 'a'.repeat(64), '0x' + 'b'.repeat(64), '0x' + 'c'.repeat(64)];
  const changes = new ServingChanges();
  for (const id of ids) changes.mempoolDoc(id, null, raw);
  const listed = (tx_id: string) => ({ pid: 1, tx_id, block_height: 2, microblock_hash: '', microblock_sequence: 2147483647, tx_index: 0, boot: false });
  // b is mined after its announcement; c was mined, then its block left the chain.
  changes.canonical('0x01', 2, true, { txs: [listed(ids[1]), listed(ids[2])], entries: [], deltas: [], nft: [] });
  changes.canonical('0x01', 2, false, { txs: [listed(ids[1]), listed(ids[2])], entries: [], deltas: [], nft: [] });
  changes.canonical('0x02', 2, true, { txs: [listed(ids[1])], entries: [], deltas: [], nft: [] });
  completeMempoolDocs(changes);
  const docs = new Map(changes.ops.flatMap((op) => (op.op === 'mempool-doc' ? [[op.tx_id, op.doc] as const] : [])));
  assert.deepEqual(docs.get(ids[0]), mempoolDoc(ids[0], raw));
  assert.equal(docs.get(ids[1]), null);
  assert.deepEqual(docs.get(ids[2]), mempoolDoc(ids[2], raw));
});

test('an entry decoded in a task is refused or accepted as it is alone, with the same reason', async () => {
  for (const fixture of ['fuzzed-transactions-1.tsv', 'regtest-env-pox-4-out-of-order-multisig-tx.tsv']) {
    const entries = await fixtureEntries(fixture);
    const { outcomes } = decodeEntriesMovable(entries, true);
    entries.forEach((e, i) => {
      const alone = decodeEventMovable({ path: e.path, body: e.body, serve: true }).outcome;
      assert.equal(outcomes[i].ok, alone.ok, `${fixture} entry ${i}`);
      if (!alone.ok && !outcomes[i].ok) assert.equal(outcomes[i].reason, alone.reason, `${fixture} entry ${i}`);
    });
  }
});

test("a task's documents are views of one moved buffer, each the bytes its entry decoded alone has", async () => {
  const entries = await fixtureEntries('regtest-env-pox-4-out-of-order-multisig-tx.tsv');
  const { outcomes, moved } = decodeEntriesMovable(entries, true);
  const values = (ev: DecodedEvent): Uint8Array[] =>
    ev.kind === 'block' || ev.kind === 'microblocks'
      ? [...ev.served.txs.flatMap((t) => [t.packed.hot, t.packed.cold]), ...ev.served.principalTxs.map((f) => f.packed), ...(ev.served.block ? [ev.served.block.record] : [])]
      : ev.kind === 'mempool'
        ? ev.docs.filter((d): d is Uint8Array => d !== null)
        : [];
  const shared = new Set<ArrayBufferLike>();
  let compared = 0;
  outcomes.forEach((o, i) => {
    if (!o.ok) return;
    const got = values(o.event);
    for (const v of got) shared.add(v.buffer);
    const alone = decodeEventMovable({ path: entries[i].path, body: entries[i].body, serve: true }).outcome;
    assert.ok(alone.ok);
    // Alone, a mempool entry renders every document; in the task, those of txs mined later are left out.
    const want = values(alone.event).filter((_, k) => o.event.kind !== 'mempool' || (alone.event.kind === 'mempool' && o.event.docs[k] !== null));
    assert.deepEqual(got.map((v) => Buffer.from(v).toString('hex')), want.map((v) => Buffer.from(v).toString('hex')), `entry ${i}`);
    compared += got.length;
  });
  assert.ok(compared > 50, `${compared} documents compared`);
  assert.equal(shared.size, 1, 'one buffer holds them all');
  assert.ok(moved.includes([...shared][0] as ArrayBuffer), 'and it is moved, not copied');
});
