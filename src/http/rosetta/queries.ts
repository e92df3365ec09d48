// Reads of the Rosetta family. Blocks by hash, height or the tip (the block family's lookups), a
// block's transactions with their STX events, the miner rewards that matured in it and the PoX
// locks that ended with it; a mined or pending transaction; an account's nonce and STX balance as
// of a height (by key: principal_balance_changes and the principal's lock events, never a scan).
import type { Store } from '../../storage/client.ts';
import { rows } from '../reads/query.ts';
import { CANONICAL_BLOCKS } from '../reads/canonical.ts';
import { blockByHash, blockByHeight, type BlockRow } from '../blocks/queries.ts';
import { fetchMempoolRows, fetchTxRows, fetchTxRowsByKey, keyOf, pickCanonical, placeTxRows, tipHeight, type MempoolRow, type PlacedTx, type TxRow } from '../tx/queries.ts';
import { queryEvents, type EventKind } from '../tx/events.ts';
import { EVENT_TABLE_BIT, ALL_EVENT_TABLES } from '../../storage/event-tables.ts';
import type { MinerReward, StxEvent, Unlock } from './operations.ts';

export type { BlockRow, TxRow, PlacedTx, MempoolRow };

/** The block a partial block identifier names, as the reference finds it: by hash (any fork,
 *  canonical first), else by a positive height, else the tip. */
export async function findBlock(store: Store, id: { hash?: string; index?: number } | undefined): Promise<BlockRow | undefined> {
  if (id?.hash) return blockByHash(store, 'block_hash', id.hash);
  if (id?.index !== undefined && id.index > 0) return blockByHeight(store, id.index);
  return tipBlock(store);
}

export async function tipBlock(store: Store): Promise<BlockRow | undefined> {
  const height = await tipHeight(store);
  return blockByHeight(store, height);
}

/** The canonical block at a height (undefined when there is none). */
export async function canonicalBlockAt(store: Store, height: number): Promise<BlockRow | undefined> {
  const b = await blockByHeight(store, height);
  return b?.canonical ? b : undefined;
}

/** The block's transactions (its txs rows, each at this block's placement); none for a block off the canonical chain. */
export async function blockTxRows(store: Store, block: BlockRow): Promise<TxRow[]> {
  if (!block.canonical || block.tx_ids.length === 0) return [];
  const keys = block.tx_ids.map((tx_id, i) => ({ tx_id, index_block_hash: block.index_block_hash, microblock_hash: block.tx_microblock_hashes[i] ?? '' }));
  const found = new Map((await fetchTxRowsByKey(store, keys)).map((r) => [keyOf(r), r]));
  return keys.map((k) => found.get(keyOf(k))).filter((r): r is TxRow => r !== undefined);
}

const STX_KINDS: Array<{ kind: EventKind; bit: number }> = [
  { kind: 'stx_asset', bit: EVENT_TABLE_BIT.stx_events },
  { kind: 'stx_lock', bit: EVENT_TABLE_BIT.stx_lock_events },
];

/** STX transfer/mint/burn and lock events of the given placements, per placement key, by event_index. */
export async function stxEvents(store: Store, txs: readonly TxRow[]): Promise<Map<string, StxEvent[]>> {
  const out = new Map<string, StxEvent[]>(txs.map((t) => [keyOf(t), []]));
  const withEvents = txs.filter((t) => t.event_count !== 0);
  const tables = withEvents.reduce((bits, t) => bits | (t.event_tables ?? ALL_EVENT_TABLES), 0);
  const kinds = STX_KINDS.filter((k) => tables & k.bit).map((k) => k.kind);
  if (kinds.length === 0) return out;
  const list = await queryEvents(store, kinds, 'tx_id IN {ids:Array(String)} AND index_block_hash IN {blocks:Array(String)}', {
    ids: [...new Set(withEvents.map((t) => t.tx_id))],
    blocks: [...new Set(withEvents.map((t) => t.index_block_hash))],
  });
  for (const e of list) {
    const event: StxEvent =
      e.kind === 'stx_lock'
        ? { kind: 'lock', event_index: e.event_index, locked_amount: BigInt(e.a), unlock_height: BigInt(e.b), locked_address: e.c }
        : { kind: e.a as 'transfer' | 'mint' | 'burn', event_index: e.event_index, sender: e.b, recipient: e.c, amount: BigInt(e.d), memo: e.e };
    out.get(keyOf(e))?.push(event);
  }
  for (const l of out.values()) l.sort((x, y) => x.event_index - y.event_index);
  return out;
}

/** Rewards that matured in the canonical block at `height`, newest reported first (as the reference lists them). */
export async function minerRewardsAt(store: Store, height: number): Promise<MinerReward[]> {
  const list = await rows<{ recipient: string; amount: string }>(
    store,
    `SELECT recipient, toString(coinbase_amount + tx_fees_anchored + tx_fees_streamed_confirmed + tx_fees_streamed_produced) AS amount
     FROM miner_rewards
     WHERE index_block_hash IN (SELECT index_block_hash FROM ${CANONICAL_BLOCKS} WHERE block_height = {h:UInt32})
     ORDER BY reward_index DESC
     LIMIT 1 BY index_block_hash, recipient, from_index_block_hash, reward_index`,
    { h: height },
  );
  return list.map((r) => ({ recipient: r.recipient, amount: BigInt(r.amount) }));
}

/** The canonical placement of a mined tx (undefined when none is canonical). */
export async function minedTx(store: Store, txId: string): Promise<PlacedTx | undefined> {
  const placed = await placeTxRows(store, await fetchTxRows(store, [txId]));
  return pickCanonical(placed, false);
}

/** Pending mempool txs, newest received first (the reference's mempool list order). */
export async function pendingTxIds(store: Store): Promise<string[]> {
  const list = await rows<{ tx_id: string }>(
    store,
    `SELECT tx_id FROM mempool_txs
     WHERE tx_id IN (SELECT tx_id FROM mempool_pending FINAL)
       AND tx_id IN (SELECT tx_id FROM mempool_status FINAL WHERE tx_id IN (SELECT tx_id FROM mempool_pending FINAL) AND status = 'pending')
     ORDER BY receipt_time DESC, tx_id
     LIMIT 1 BY tx_id`,
  );
  return list.map((r) => r.tx_id);
}

/** A tx in the mempool, pending only. */
export async function pendingTx(store: Store, txId: string): Promise<MempoolRow | undefined> {
  const row = (await fetchMempoolRows(store, [txId])).get(txId);
  return row?.status === 'pending' ? row : undefined;
}

export type { Unlock };
