// minedNonceOf on a real LMDB store: every used nonce is found however deep in the account's list,
// unused ones are not, and entries the account only sponsored (no nonce of its own) are stepped over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openServingStore, LIST } from './store.ts';
import { packPrincipalFact } from './codec.ts';
import { minedNonce, minedNonceOf } from './mined-nonce.ts';
import type { PrincipalTxFact } from './docs.ts';

const SENDER = 'SP000000000000000000002Q6VF78';
const SPONSOR_ONLY = 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE';

function fact(ordinal: number, own: { nonce?: number; sponsor_nonce?: number }): PrincipalTxFact {
  return { roles: 1, stx_sent: '0', stx_received: '0', events: [], block_height: ordinal + 1, microblock_sequence: 0, tx_index: 0, tx_id: `0x${ordinal.toString(16).padStart(64, '0')}`, ...own };
}

test('minedNonceOf finds every mined nonce of an account by its own-tx list, and no other', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mined-nonce-'));
  const store = openServingStore(dir);
  try {
    // SENDER: nonces 0..1999 skipping multiples of 7 (dropped or never mined), with a run of
    // sponsored-only txs after every 10th; SPONSOR_ONLY: 500 txs without a nonce of its own.
    const txOf = new Map<number, string>();
    let ordinal = 0;
    await store.env.transaction(() => {
      for (let n = 0; n < 2000; n++) {
        if (n % 7 === 0) continue;
        const f = fact(ordinal, { nonce: n });
        txOf.set(n, f.tx_id);
        void store.lists.put([LIST.OWN, SENDER, ordinal], 100_000 + ordinal);
        void store.principalTxs.put([SENDER, 100_000 + ordinal], packPrincipalFact(f));
        ordinal++;
        if (n % 10 === 0) {
          for (let k = 0; k < 3; k++, ordinal++) {
            void store.lists.put([LIST.OWN, SENDER, ordinal], 100_000 + ordinal);
            void store.principalTxs.put([SENDER, 100_000 + ordinal], packPrincipalFact(fact(ordinal, { sponsor_nonce: ordinal })));
          }
        }
      }
      for (let o = 0; o < 500; o++) {
        void store.lists.put([LIST.OWN, SPONSOR_ONLY, o], 900_000 + o);
        void store.principalTxs.put([SPONSOR_ONLY, 900_000 + o], packPrincipalFact(fact(o, { sponsor_nonce: o })));
      }
    });
    for (let n = 0; n < 2005; n++) assert.equal(minedNonceOf(store, SENDER, n), txOf.get(n), `nonce ${n}`);
    assert.equal(minedNonceOf(store, SPONSOR_ONLY, 3), undefined);
    assert.equal(minedNonceOf(store, 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7', 0), undefined);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('minedNonce answers from the remembered blocks, and searches the store only when they cannot tell', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mined-nonce-'));
  const store = openServingStore(dir);
  try {
    const f = fact(0, { nonce: 4 });
    await store.env.transaction(() => {
      void store.lists.put([LIST.OWN, SENDER, 0], 7);
      void store.principalTxs.put([SENDER, 7], packPrincipalFact(f));
    });
    const recent = new Map([[`${SENDER}|5`, '0xfive']]);
    const lookups: string[] = [];
    const remembered = (a: string, n: number) => {
      lookups.push(`${a}|${n}`);
      return recent.get(`${a}|${n}`);
    };
    assert.equal(minedNonce(remembered, store, SENDER, 5), '0xfive', 'remembered');
    assert.equal(minedNonce(remembered, store, SENDER, 6), undefined, 'after a remembered nonce: not used');
    assert.equal(minedNonce(remembered, store, SENDER, 4), f.tx_id, 'older than the remembered blocks: from the store');
    assert.equal(minedNonce(remembered, undefined, SENDER, 4), undefined, 'no store: the remembered blocks only');
    // Had the store been searched for nonce 6, it would have found this (an impossible chain, to show the path taken).
    await store.env.transaction(() => {
      void store.lists.put([LIST.OWN, SENDER, 1], 8);
      void store.principalTxs.put([SENDER, 8], packPrincipalFact(fact(1, { nonce: 6 })));
    });
    assert.equal(minedNonce(remembered, store, SENDER, 6), undefined);
    assert.equal(minedNonce(() => undefined, store, SENDER, 6), fact(1, {}).tx_id);
    assert.ok(lookups.includes(`${SENDER}|5`));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
