// A principal's transactions as full tx objects (rendered by the tx family): the v1 list, the
// with_transfers views, the v2 list with per-tx summaries, its mempool txs, its events in one tx.
import type { Store } from '../../storage/client.ts';
import { SINGLE_WITH_TRANSFERS_ROLES, V1_TX_ROLES, V2_TX_ROLES, WITH_TRANSFERS_ROLES } from '../../stacks/roles.ts';
import { decodeTransaction } from '../../stacks/codec/index.ts';
import { canonicalPlacements, getMinedTxObjects, renderMempoolTxs, renderPlacedTxs, type TxObject } from '../tx/tx-object.ts';
import { mempoolRawTxs, mempoolRowsOf, newestFirst, pendingEntries, pendingNames } from '../tx/mempool.ts';
import { blockHashesOf, fetchTxRowsByKey, placeTxRows } from '../tx/queries.ts';
import { formatMinedTx } from '../../render/tx.ts';
import { principalEventsOf, principalTxAt, principalTxPage, type PrincipalTxRow } from './queries.ts';
import { eventCounts, formatTransfers, type PrincipalEventRow } from './format.ts';
import type { ReadHeight, Scope } from './scope.ts';


const TRANSFER_KINDS = ['stx', 'ft', 'nft'];
const keyOf = (t: { tx_id: string; index_block_hash: string; microblock_hash: string }) => `${t.tx_id}|${t.index_block_hash}|${t.microblock_hash}`;

export function listScope(principal: string, at: ReadHeight, atHeight?: number): Scope {
  return atHeight !== undefined ? { principal, atHeight } : { principal, maxHeight: at.maxHeight, unconfirmed: at.unconfirmed };
}

/** Tx objects of principal_txs rows, in their order. */
async function objectsOf(store: Store, list: PrincipalTxRow[], excludeFunctionArgs = false): Promise<TxObject[]> {
  const objs = await getMinedTxObjects(store, list, { excludeFunctionArgs });
  if (objs.length !== list.length) throw new Error(`tx objects missing for ${list.length - objs.length} address txs`);
  return objs;
}

/**
 * Tx objects rendered without the called contract's ABI: the reference's v2 address list selects
 * no ABI, so contract calls show an empty function_signature and argument names, and argument
 * types read from the values.
 */
async function objectsWithoutAbi(store: Store, list: PrincipalTxRow[], excludeFunctionArgs = false): Promise<TxObject[]> {
  const placed = await placeTxRows(store, await fetchTxRowsByKey(store, list));
  const byKey = new Map(placed.map((p) => [keyOf(p), p]));
  const ordered = list.map((r) => byKey.get(keyOf(r)));
  if (ordered.some((p) => !p)) throw new Error('tx rows missing for address txs');
  const parents = await blockHashesOf(store, placed.filter((p) => p.unanchored).map((p) => p.parent_index_block_hash));
  return ordered.map((p) => formatMinedTx(p!, { abi: null, excludeFunctionArgs }, { parentBlockHash: parents.get(p!.parent_index_block_hash)?.block_hash }));
}

export async function addressTransactionsV1(store: Store, scope: Scope, page: { limit: number; offset: number; exclude_function_args?: boolean }) {
  const { total, results } = await principalTxPage(store, scope, V1_TX_ROLES, page);
  return { limit: page.limit, offset: page.offset, total, results: await objectsOf(store, results, page.exclude_function_args) };
}

/**
 * The reference's with_transfers stx_sent: the principal's STX sent in events, plus the fee when it
 * is the tx's origin (even of a sponsored tx).
 */
function withTransfers(principal: string, tx: TxObject, events: PrincipalEventRow[]) {
  let sent = tx.sender_address === principal ? BigInt(String(tx.fee_rate ?? '0')) : 0n;
  let received = 0n;
  for (const e of events) {
    if (e.kind !== 'stx') continue;
    if (e.sender === principal) sent += BigInt(e.amount);
    if (e.recipient === principal) received += BigInt(e.amount);
  }
  return { tx, stx_sent: sent.toString(), stx_received: received.toString(), ...formatTransfers(events) };
}

/** GET /address/:principal/:tx_id/with_transfers: undefined when the principal has no part in the tx. */
export async function txWithTransfers(store: Store, principal: string, txId: string) {
  const placed = (await canonicalPlacements(store, [txId])).values().next().value;
  if (!placed) return undefined;
  const row = await principalTxAt(store, principal, placed, SINGLE_WITH_TRANSFERS_ROLES);
  if (!row) return undefined;
  const [[tx], events] = await Promise.all([renderPlacedTxs(store, [placed]), principalEventsOf(store, principal, [placed], TRANSFER_KINDS)]);
  return withTransfers(principal, tx, events.get(keyOf(placed)) ?? []);
}

/** Rows of unconfirmed microblocks are stored at height 0 but are the newest. */
const blockHeightOf = (r: PrincipalTxRow): number => (r.index_block_hash === '' ? 4294967295 : r.block_height);

/** GET /address/:principal/transactions_with_transfers. With `height`, every tx at it (no paging, as the reference). */
export async function transactionsWithTransfers(store: Store, scope: Scope, page: { limit: number; offset: number }) {
  const { total, results: keyOrder } = await principalTxPage(store, scope, WITH_TRANSFERS_ROLES, scope.atHeight !== undefined ? 'all' : page);
  // The reference re-sorts the page by (block_height, tx_index) descending, keeping the key order
  // on ties: a microblock tx can come before an anchored tx of the same block.
  const results = [...keyOrder].sort((a, b) => blockHeightOf(b) - blockHeightOf(a) || b.tx_index - a.tx_index);
  const [objs, events] = await Promise.all([objectsOf(store, results), principalEventsOf(store, scope.principal, results, TRANSFER_KINDS)]);
  return {
    limit: page.limit,
    offset: page.offset,
    total,
    results: results.map((r, i) => withTransfers(scope.principal, objs[i], events.get(keyOf(r)) ?? [])),
  };
}

/** GET /v2/addresses/:address/transactions: canonical txs (with unconfirmed microblocks) and per-tx summaries. */
export async function addressTransactionsV2(store: Store, principal: string, page: { limit: number; offset: number; exclude_function_args?: boolean }) {
  const scope: Scope = { principal, unconfirmed: true };
  const { total, results } = await principalTxPage(store, scope, V2_TX_ROLES, page);
  const [objs, events] = await Promise.all([objectsWithoutAbi(store, results, page.exclude_function_args), principalEventsOf(store, principal, results, TRANSFER_KINDS)]);
  return {
    limit: page.limit,
    offset: page.offset,
    total,
    results: results.map((r, i) => ({ tx: objs[i], stx_sent: r.stx_sent, stx_received: r.stx_received, events: eventCounts(events.get(keyOf(r)) ?? []) })),
  };
}

/** The principal's STX/FT/NFT events in the canonical placement of a tx, by event_index. */
export async function principalTxEvents(store: Store, principal: string, txId: string): Promise<PrincipalEventRow[]> {
  const placed = (await canonicalPlacements(store, [txId], true)).values().next().value;
  if (!placed) return [];
  return (await principalEventsOf(store, principal, [placed], TRANSFER_KINDS)).get(keyOf(placed)) ?? [];
}

/**
 * GET /address/:principal/mempool: pending txs the principal sends, receives (token transfer) or
 * whose contract it is, newest receipt first. Without `unanchored`, txs of unconfirmed
 * microblocks still count as pending (as the reference).
 */
export async function addressMempool(store: Store, principal: string, q: { limit: number; offset: number; unanchored: boolean; exclude_function_args: boolean }) {
  const { entries } = await pendingEntries(store, q.unanchored, principal);
  const transfers = entries.filter((e) => e.type_id === 'token_transfer' && e.sender_address !== principal);
  const raws = await mempoolRawTxs(store, transfers.map((e) => e.tx_id));
  const recipientOf = (id: string): string => {
    try {
      const p = decodeTransaction(raws.get(id) ?? '').payload;
      return p.type === 'token_transfer' ? p.recipient : '';
    } catch {
      return '';
    }
  };
  const mine = entries
    .filter((e) => pendingNames(e, principal, e.type_id === 'token_transfer' && raws.has(e.tx_id) ? recipientOf(e.tx_id) : undefined))
    .sort(newestFirst);
  const page = mine.slice(q.offset, q.offset + q.limit);
  const results = await renderMempoolTxs(store, await mempoolRowsOf(store, page), { excludeFunctionArgs: q.exclude_function_args });
  return { limit: q.limit, offset: q.offset, total: results.length ? mine.length : 0, results };
}
