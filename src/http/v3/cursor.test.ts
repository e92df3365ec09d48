// The cursor arithmetic on plain lists: a cursor names the first item at or below it, `h:0:0`
// naming no item is the start of block h, a list longer than its reported length is still searched
// to its end, and the page cursors are the reference's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ANCHORED_SEQUENCE, encodeTxCursor, pageAt, txCursorOffset, type OffsetList, type TxKey } from './cursor.ts';

const key = (block_height: number, tx_index: number, microblock_sequence = ANCHORED_SEQUENCE): TxKey => ({ block_height, microblock_sequence, tx_index });

/** Newest first: blocks 9..1 with 3 txs each, block 5 also with a microblock tx (sequence 0). */
const ITEMS: TxKey[] = [];
for (let h = 9; h >= 1; h--) {
  for (let i = 2; i >= 0; i--) ITEMS.push(key(h, i));
  if (h === 5) ITEMS.push(key(5, 0, 0));
}

const listOf = (items: TxKey[], reportedLength = items.length): OffsetList<TxKey> => ({
  length: async () => reportedLength,
  slice: async (offset, limit) => items.slice(offset, offset + limit),
});

const at = async (cursor: string, list = listOf(ITEMS)) => ITEMS[await txCursorOffset(list, cursor, (k) => k)];

test('a cursor names the first item at or below it', async () => {
  assert.deepEqual(await at(`7:${ANCHORED_SEQUENCE}:1`), key(7, 1));
  assert.deepEqual(await at(`7:${ANCHORED_SEQUENCE}:9`), key(7, 2));
  assert.deepEqual(await at('5:0:0'), key(5, 0, 0), 'an exact h:0:0 is that item');
  assert.deepEqual(await at('7:0:0'), key(7, 2), 'h:0:0 naming no item is the start of block h');
  assert.deepEqual(await at('99:0:0'), key(9, 2));
  assert.equal(await at('0:0:0'), undefined);
});

test('a list longer than its reported length is searched to its end', async () => {
  assert.deepEqual(await at(`2:${ANCHORED_SEQUENCE}:0`, listOf(ITEMS, 5)), key(2, 0));
  assert.deepEqual(await at(`1:${ANCHORED_SEQUENCE}:0`, listOf(ITEMS, 0)), key(1, 0));
});

test("pages: next is the item after the page, previous the first of the page above, current the page's first", async () => {
  const list = listOf(ITEMS);
  const cursorOf = (k: TxKey) => encodeTxCursor(k);
  const first = await pageAt(list, 0, 4, cursorOf);
  assert.deepEqual(first.cursor, { next: cursorOf(ITEMS[4]), previous: null, current: cursorOf(ITEMS[0]) });
  const second = await pageAt(list, 2, 4, cursorOf);
  assert.deepEqual(second.cursor, { next: cursorOf(ITEMS[6]), previous: cursorOf(ITEMS[0]), current: cursorOf(ITEMS[2]) });
  const last = await pageAt(list, ITEMS.length - 1, 4, cursorOf);
  assert.equal(last.cursor.next, null);
  assert.deepEqual(await pageAt(list, ITEMS.length, 4, cursorOf), { results: [], cursor: { next: null, previous: null, current: null } });
  // Walking next from the top visits every item once, in order.
  const seen: TxKey[] = [];
  for (let offset = 0, cursor: string | null = null; ; ) {
    if (cursor) offset = await txCursorOffset(list, cursor, (k) => k);
    const page = await pageAt(list, offset, 3, cursorOf);
    seen.push(...page.results);
    if (!page.cursor.next) break;
    cursor = page.cursor.next;
  }
  assert.deepEqual(seen, ITEMS);
});
