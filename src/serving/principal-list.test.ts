// One list per principal (principal-list.ts) against a model of the four reference lists: every
// page at every offset of every list, newest first, after appends over several batches, a removal
// at the tail and a deep one (the entries above renumbered), a (principal, tx) lookup by chain
// position, and the writer's remembered headers read back once forgotten.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDataDir } from '../testing/service.ts';
import { openServingStore, type ServingStore } from './store.ts';
import { LIST_FILTERS, PrincipalList, inList, type ChainPosition } from './principal-list.ts';
import { ListHeaders, PrincipalListOverlay, type NewEntry } from './principal-list-overlay.ts';
import { ROLE } from '../stacks/roles.ts';
import { packFact } from './principal-fact.ts';

const ANCHORED = 2147483647;
const ROLES = [ROLE.SENDER, ROLE.TX_PARTY, ROLE.STX_EVENT, ROLE.FT_EVENT, ROLE.NFT_EVENT, ROLE.SPONSOR, ROLE.SENDER | ROLE.STX_EVENT, ROLE.BOOT | ROLE.STX_EVENT, ROLE.OTHER | ROLE.NFT_EVENT];

/** A deterministic entry: the nth of the chain (a few per block). */
function entry(n: number): NewEntry {
  // Three per block, in chain order: some blocks' first tx from a microblock.
  const height = 1 + Math.floor(n / 3);
  const pos: ChainPosition = { block_height: height, microblock_sequence: n % 3 === 0 && height % 4 === 0 ? 0 : ANCHORED, tx_index: n % 3 };
  return { pid: (100 + n) * 2 ** 20 + (n % 7), roles: ROLES[(n * 7 + (n >> 3)) % ROLES.length], ...pos, fact: packFact({ roles: 0, stx_sent: String(n), stx_received: '0', events: [], nonce: n }) };
}

async function write(s: ServingStore, headers: ListHeaders, f: (o: PrincipalListOverlay) => void): Promise<void> {
  const o = new PrincipalListOverlay(s, headers);
  f(o);
  o.flush();
  await s.env.committed;
  o.committed();
}

/** Every page of every list equals the model's (newest first), at page sizes 1, 7 and 50. */
function assertPages(s: ServingStore, id: number, model: NewEntry[]): void {
  const list = PrincipalList.open(s.lists, id);
  assert.ok(list);
  assert.equal(list.header.n, model.length);
  LIST_FILTERS.forEach((_, l) => {
    const expected = model.filter((e) => inList(l, e.roles)).reverse();
    assert.equal(list.length(l), expected.length, `list ${l} length`);
    for (const limit of [1, 7, 50]) {
      for (let offset = 0; offset <= expected.length; offset += limit === 1 ? 1 : 3) {
        const got: number[] = list.newestFirst(l, offset, limit).map((x) => x.entry.pid);
        assert.deepEqual(got, expected.slice(offset, offset + limit).map((e) => e.pid), `list ${l} offset ${offset} limit ${limit}`);
      }
    }
  });
  model.forEach((e, k) => {
    const found = list.find(e, e.pid);
    assert.equal(found?.ordinal, k, `entry ${k} found by its position`);
  });
  assert.equal(list.find({ block_height: 99_999, microblock_sequence: ANCHORED, tx_index: 0 }, 1), undefined);
}

test('pages at any offset of every list, across batches, a tail removal and a deep one', async () => {
  const s = openServingStore(join(tempDataDir('plist-'), 'serving'));
  try {
    const headers = new ListHeaders(s);
    const model: NewEntry[] = [];
    for (let batch = 0; batch < 4; batch++) {
      await write(s, headers, (o) => {
        for (let n = batch * 60; n < batch * 60 + 60; n++) {
          const e = entry(n);
          o.append(7, e);
          model.push(e);
          // Another principal's entries between: lists are per principal.
          o.append(8, entry(1000 + n));
        }
      });
    }
    assertPages(s, 7, model);
    // A reorg: the newest two go, then one deep in the list (the entries above move down).
    await write(s, headers, (o) => {
      assert.equal(o.remove(7, model[239].pid), true);
      assert.equal(o.remove(7, model[238].pid), true);
      assert.equal(o.remove(7, model[100].pid), true, 'a deeper entry is found too');
      assert.equal(o.remove(7, 12345), false, 'an entry that is not there');
    });
    model.splice(238, 2);
    model.splice(100, 1);
    assertPages(s, 7, model);
    // Appends after the removals continue the renumbered list.
    await write(s, headers, (o) => {
      for (let n = 240; n < 250; n++) {
        o.append(7, entry(n));
        model.push(entry(n));
      }
    });
    assertPages(s, 7, model);
    assert.equal(PrincipalList.open(s.lists, 8)?.header.n, 240, "the other principal's list is untouched");
    assert.equal(PrincipalList.open(s.lists, 9), undefined, 'a principal without entries has no list');
  } finally {
    await s.close();
  }
});

test("the writer's remembered headers: newer than the committed store, and read back once forgotten", async () => {
  const s = openServingStore(join(tempDataDir('plist-'), 'serving'));
  try {
    const headers = new ListHeaders(s, 2);
    await write(s, headers, (o) => [0, 1, 2].forEach((n) => o.append(1, entry(n))));
    // Two other lists push principal 1's header out of a memory of two; it is then read from the store.
    await write(s, headers, (o) => {
      o.append(2, entry(10));
      o.append(3, entry(11));
    });
    await write(s, headers, (o) => o.append(1, entry(3)));
    assert.deepEqual(PrincipalList.open(s.lists, 1)?.header.n, 4);
    assert.equal(headers.get(1).n, 4);
    // Every entry removed: the list (and its header) is gone.
    await write(s, headers, (o) => [3, 2, 1, 0].forEach((n) => assert.ok(o.remove(1, entry(n).pid))));
    assert.equal(PrincipalList.open(s.lists, 1), undefined);
  } finally {
    await s.close();
  }
});
