// minedNonceOf on a real LMDB store: every used nonce is found however deep in the account's list,
// unused ones are not, and entries the account only sponsored (no nonce of its own) are stepped over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openServingStore, type ServingStore } from './store.ts';
import { packTxDoc } from './codec.ts';
import { packFact } from './principal-fact.ts';
import { lastMinedNonceOf, minedNonce, minedNonceOf, StoreNonceCeilings } from './mined-nonce.ts';
import { TX_FLAGS } from './docs.ts';
import { ServingChanges } from './changes.ts';
import { ListHeaders, PrincipalListOverlay } from './principal-list-overlay.ts';
import { PrincipalIds } from './principal-ids.ts';
import { ROLE } from '../stacks/roles.ts';

const SENDER = 'SP000000000000000000002Q6VF78';
const SPONSOR_ONLY = 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE';

const txIdOf = (pid: number) => `0x${pid.toString(16).padStart(64, '0')}`;

/** Lists the txs of `entries` ([principal, pid, nonces]) in one batch, in order, with their documents. */
async function listed(store: ServingStore, entries: Array<[string, number, { nonce?: number; sponsor_nonce?: number }]>): Promise<void> {
  const ids = new PrincipalIds(store).batch();
  const lists = new PrincipalListOverlay(store, new ListHeaders(store));
  entries.forEach(([principal, pid, own], k) => {
    const roles = own.nonce === undefined ? ROLE.SPONSOR : ROLE.SENDER;
    lists.append(ids.idOf(principal), { pid, roles, block_height: k + 1, microblock_sequence: 2147483647, tx_index: 0, fact: packFact({ roles, stx_sent: '0', stx_received: '0', events: [], ...own }) });
    const doc = { flags: TX_FLAGS.OWN_PLACEMENT | TX_FLAGS.FULL_BODY, body: `"tx_id":"${txIdOf(pid)}"`, event_count: 0, sender_address: principal, fee_rate: '0', microblock_hash: '', microblock_sequence: 2147483647, tx_index: 0, index_block_hash: '0x01', block_height: k + 1 };
    void store.writes.txDocs.put(pid, packTxDoc(doc).hot as Buffer);
  });
  lists.flush();
  ids.flush();
  await store.env.committed;
}

test('minedNonceOf finds every mined nonce of an account by its own-tx list, and no other', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mined-nonce-'));
  const store = openServingStore(dir);
  try {
    // SENDER: nonces 0..1999 skipping multiples of 7 (dropped or never mined), with a run of
    // sponsored-only txs after every 10th; SPONSOR_ONLY: 500 txs without a nonce of its own.
    const txOf = new Map<number, string>();
    const entries: Array<[string, number, { nonce?: number; sponsor_nonce?: number }]> = [];
    let pid = 100_000;
    for (let n = 0; n < 2000; n++) {
      if (n % 7 === 0) continue;
      txOf.set(n, txIdOf(pid));
      entries.push([SENDER, pid++, { nonce: n }]);
      if (n % 10 === 0) for (let k = 0; k < 3; k++) entries.push([SENDER, pid, { sponsor_nonce: pid++ }]);
    }
    for (let o = 0; o < 500; o++) entries.push([SPONSOR_ONLY, 900_000 + o, { sponsor_nonce: o }]);
    await listed(store, entries);
    for (let n = 0; n < 2005; n++) assert.equal(minedNonceOf(store, SENDER, n), txOf.get(n), `nonce ${n}`);
    assert.equal(minedNonceOf(store, SPONSOR_ONLY, 3), undefined);
    assert.equal(minedNonceOf(store, 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7', 0), undefined);
    // The highest nonce, read from the list's tail: the sponsor-only account's cannot be told.
    assert.equal(lastMinedNonceOf(store, SENDER), 1999);
    assert.equal(lastMinedNonceOf(store, SPONSOR_ONLY), undefined);
    assert.equal(lastMinedNonceOf(store, 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7'), -1);
    // With the ceilings, every answer is the search's.
    const ceilings = new StoreNonceCeilings();
    const none = () => undefined;
    for (let n = 0; n < 2005; n++) assert.equal(minedNonce(none, store, SENDER, n, ceilings), txOf.get(n), `nonce ${n} with ceilings`);
    assert.equal(minedNonce(none, store, SPONSOR_ONLY, 3, ceilings), undefined);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('minedNonce answers from the remembered blocks, and searches the store only when they cannot tell', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mined-nonce-'));
  const store = openServingStore(dir);
  try {
    await listed(store, [[SENDER, 7, { nonce: 4 }]]);
    const recent = new Map([[`${SENDER}|5`, '0xfive']]);
    const lookups: string[] = [];
    const remembered = (a: string, n: number) => {
      lookups.push(`${a}|${n}`);
      return recent.get(`${a}|${n}`);
    };
    assert.equal(minedNonce(remembered, store, SENDER, 5), '0xfive', 'remembered');
    assert.equal(minedNonce(remembered, store, SENDER, 6), undefined, 'after a remembered nonce: not used');
    assert.equal(minedNonce(remembered, store, SENDER, 4), txIdOf(7), 'older than the remembered blocks: from the store');
    assert.equal(minedNonce(remembered, undefined, SENDER, 4), undefined, 'no store: the remembered blocks only');
    // Had the store been searched for nonce 6, it would have found this (an impossible chain, to show the path taken).
    await listed(store, [[SENDER, 8, { nonce: 6 }]]);
    assert.equal(minedNonce(remembered, store, SENDER, 6), undefined);
    assert.equal(minedNonce(() => undefined, store, SENDER, 6), txIdOf(8));
    assert.ok(lookups.includes(`${SENDER}|5`));
    // The ceilings hold the store as it was when read; a commit's canonical blocks raise them, and
    // one that leaves the chain drops them all.
    const ceilings = new StoreNonceCeilings();
    const none = () => undefined;
    assert.equal(minedNonce(none, store, SENDER, 9, ceilings), undefined);
    await listed(store, [[SENDER, 9, { nonce: 9 }]]);
    assert.equal(minedNonce(none, store, SENDER, 9, ceilings), undefined, 'above the ceiling read before: not searched');
    const commit = (canonical: boolean, nonce: number) => {
      const changes = new ServingChanges();
      const entry = { pid: 9, tx_id: txIdOf(9), block_height: 9, microblock_hash: '', microblock_sequence: 2147483647, tx_index: 0, boot: false, principal: SENDER, roles: ROLE.SENDER, fact: packFact({ roles: ROLE.SENDER, stx_sent: '0', stx_received: '0', events: [], nonce }) };
      changes.canonical('0x09', 9, canonical, { txs: [], entries: [entry], deltas: [], nft: [] });
      ceilings.committed(changes);
    };
    commit(true, 9);
    assert.equal(minedNonce(none, store, SENDER, 9, ceilings), txIdOf(9), 'raised by the commit');
    await listed(store, [[SENDER, 10, { nonce: 10 }]]);
    assert.equal(minedNonce(none, store, SENDER, 10, ceilings), undefined, 'not committed through the ceilings');
    commit(false, 9);
    assert.equal(minedNonce(none, store, SENDER, 10, ceilings), txIdOf(10), 'a block left the chain: read again');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
