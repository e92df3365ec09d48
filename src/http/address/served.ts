// Address answers from the serving store, for the reads a wallet makes on every screen: a
// principal's txs (v1, with transfers, v2) at the tip, one tx with its transfers, balances and
// nonces. `undefined`: not answerable here (the caller asks ClickHouse) — a principal whose lists
// could not be kept exactly, or an answer that involves unconfirmed microblocks.
import { canonicalPlacement, minedTxJson } from '../tx/served.ts';
import { pendingTxsJson } from '../tx/served-lists.ts';
import { newestFirst, pendingNames } from '../tx/mempool.ts';
import { placedDocOf, principalIdOf, type PlacedTxDoc } from '../../serving/reads.ts';
import { LIST, PrincipalList, type ListEntry } from '../../serving/principal-list.ts';
import { readFact } from '../../serving/principal-fact.ts';
import { assetKey, assetRange, assetOfKey, readNftCounts, readTotals, type BalanceTotals } from '../../serving/totals.ts';
import { ASSET_EVENT_CODES, type AssetEvent, type PrincipalTxFact } from '../../serving/docs.ts';
import { formatStxBalanceV2 } from './format.ts';
import { assetEventsOf } from '../../serving/asset-events.ts';
import { blockDocOf, indexHashesAt } from '../../serving/block-reads.ts';
import { SINGLE_WITH_TRANSFERS_ROLES, listsRow } from '../../stacks/roles.ts';
import { formatTransfers } from '../../render/transfers.ts';
import type { PrincipalEventRow } from '../../render/rows.ts';
import { lockApplies, lockStateOf, pendingDeltaOf, v1LockFrom, v1LockKinds, v2LockFrom, type LockRow, type LockState, type PendingDelta, type Totals } from './balance-queries.ts';
import { noncesOf, type Nonces } from './nonce-queries.ts';
import type { Serving } from '../reads/source.ts';

interface Page {
  limit: number;
  offset: number;
}

const listOf = (s: Serving, principal: string): PrincipalList | undefined => PrincipalList.open(s.store.lists, principalIdOf(s.store, principal));

/** A page of a principal's list: its entries newest first and the list's total (0 for an empty page). */
function listPage(s: Serving, list: number, principal: string, page: Page): { total: number; entries: ListEntry[] } | undefined {
  if (s.view.isDirty(principal)) return undefined;
  const l = listOf(s, principal);
  const entries = l ? l.newestFirst(list, page.offset, page.limit).map((e) => e.entry) : [];
  return { total: entries.length && l ? l.length(list) : 0, entries };
}

const listJson = (page: Page, total: number, results: string[]) => `{"limit":${page.limit},"offset":${page.offset},"total":${total},"results":[${results.join(',')}]}`;

/** Documents of list entries, in order; undefined if one is missing. */
function docsOf(s: Serving, entries: readonly ListEntry[]): PlacedTxDoc[] | undefined {
  const out: PlacedTxDoc[] = [];
  for (const e of entries) {
    const p = placedDocOf(s.store, e.pid);
    if (!p) return undefined;
    out.push(p);
  }
  return out;
}

/** GET /extended/v1/address/:principal/transactions at the tip. */
export function servedTransactionsV1(s: Serving, principal: string, q: Page & { exclude_function_args?: boolean }): string | undefined {
  const p = listPage(s, LIST.V1, principal, q);
  const docs = p && docsOf(s, p.entries);
  if (!p || !docs) return undefined;
  return listJson(q, p.total, docs.map((d) => minedTxJson(s, d, { excludeFunctionArgs: q.exclude_function_args })));
}

/** The with_transfers record of one tx: the reference counts the origin's fee as sent. */
function withTransfersJson(s: Serving, principal: string, p: PlacedTxDoc, fact: PrincipalTxFact): string {
  const { doc } = p;
  const events = assetEventsOf(s.store, p, fact.events);
  let sent = doc.sender_address === principal ? BigInt(doc.fee_rate || '0') : 0n;
  let received = 0n;
  for (const e of events) {
    if (e.kind !== 'stx') continue;
    if (e.sender === principal) sent += BigInt(e.amount);
    if (e.recipient === principal) received += BigInt(e.amount);
  }
  const transfers = JSON.stringify(formatTransfers(events as unknown as PrincipalEventRow[])).slice(1, -1);
  return `{"tx":${minedTxJson(s, p)},"stx_sent":"${sent}","stx_received":"${received}",${transfers}}`;
}

/** GET /extended/v1/address/:principal/transactions_with_transfers at the tip. */
export function servedTransactionsWithTransfers(s: Serving, principal: string, q: Page): string | undefined {
  const p = listPage(s, LIST.WITH_TRANSFERS, principal, q);
  const docs = p && docsOf(s, p.entries);
  if (!p || !docs) return undefined;
  // As the reference: the page re-sorted by (block_height, tx_index), keeping list order on ties.
  const sorted = p.entries.map((e, i) => ({ e, i })).sort((a, b) => b.e.block_height - a.e.block_height || b.e.tx_index - a.e.tx_index || a.i - b.i);
  return listJson(q, p.total, sorted.map(({ e, i }) => withTransfersJson(s, principal, docs[i], readFact(e.fact, e.roles))));
}

/** Per-kind counts of a principal's STX/FT/NFT events in one tx, from their codes (the v2 list's
 *  `events`). */
export function eventCountsOf(events: ReadonlyArray<[number, number]>) {
  const counts = ASSET_EVENT_CODES.map(() => 0);
  for (const [, code] of events) if (code < counts.length) counts[code]++;
  const kind = (k: number) => ({ transfer: counts[k], mint: counts[k + 1], burn: counts[k + 2] });
  return { stx: kind(0), ft: kind(3), nft: kind(6) };
}

/** GET /extended/v2/addresses/:address/transactions (contract calls rendered without the ABI, as the reference). */
export function servedTransactionsV2(s: Serving, principal: string, q: Page & { exclude_function_args?: boolean }): string | undefined {
  if (s.view.hasLiveMicroblocks) return undefined;
  const p = listPage(s, LIST.V2, principal, q);
  const docs = p && docsOf(s, p.entries);
  if (!p || !docs) return undefined;
  const results = p.entries.map((e, i) => {
    const fact = readFact(e.fact, e.roles);
    const tx = minedTxJson(s, docs[i], { withAbi: false, excludeFunctionArgs: q.exclude_function_args });
    return `{"tx":${tx},"stx_sent":"${fact.stx_sent}","stx_received":"${fact.stx_received}","events":${JSON.stringify(eventCountsOf(fact.events))}}`;
  });
  return listJson(q, p.total, results);
}

/** GET /extended/v1/address/:principal/:tx_id/with_transfers; null: no such tx, or the principal has no part in it. */
export function servedWithTransfers(s: Serving, principal: string, txId: string): string | null {
  // With its cold part: the transfers read its inline events, and the document is read once.
  const placed = canonicalPlacement(s, txId, false, true);
  if (!placed || placed === 'unanchored') return null;
  const at = { block_height: placed.block_height, microblock_sequence: placed.doc.microblock_sequence, tx_index: placed.doc.tx_index };
  const found = listOf(s, principal)?.find(at, placed.pid);
  if (!found || !listsRow(SINGLE_WITH_TRANSFERS_ROLES, found.entry.roles)) return null;
  return withTransfersJson(s, principal, placed, readFact(found.entry.fact, found.entry.roles));
}

/** GET /extended/v2/addresses/:address/transactions/:tx_id/events: the principal's STX, FT and NFT
 *  events in a tx anchored on the canonical chain, by event index; undefined: asked of the engine
 *  (no such placement here, or the principal has no part in the tx). */
export function servedPrincipalTxEvents(s: Serving, principal: string, txId: string): AssetEvent[] | undefined {
  const placed = canonicalPlacement(s, txId, false, true);
  if (!placed || placed === 'unanchored') return undefined;
  const at = { block_height: placed.block_height, microblock_sequence: placed.doc.microblock_sequence, tx_index: placed.doc.tx_index };
  const found = listOf(s, principal)?.find(at, placed.pid);
  if (!found) return undefined;
  return assetEventsOf(s.store, placed, readFact(found.entry.fact, found.entry.roles).events).sort((a, b) => a.event_index - b.event_index);
}

/** GET /extended/v1/address/:principal/mempool: pending txs the principal sends, receives (token
 *  transfer) or whose contract it is, newest receipt first (ties in arrival order); undefined when
 *  the engine answers: without `unanchored`, txs of unconfirmed microblocks count as pending, and
 *  the view does not hold those. */
export function servedAddressMempool(s: Serving, principal: string, q: Page & { unanchored: boolean; exclude_function_args: boolean }): string | undefined {
  if (!q.unanchored && s.view.hasLiveMicroblocks) return undefined;
  // A contract principal can be a deploy's contract id, which a pending entry does not index.
  const candidates = principal.includes('.') ? [...s.view.pending.values()] : s.view.pendingOf(principal);
  const mine = candidates
    .filter((e) => pendingNames(e, principal, e.type_id === 'token_transfer' ? e.recipient : undefined))
    .sort(newestFirst);
  const page = mine.slice(q.offset, q.offset + q.limit);
  const results = pendingTxsJson(s, page, { excludeFunctionArgs: q.exclude_function_args });
  return results && listJson(q, page.length ? mine.length : 0, results);
}

// ---------------------------------------------------------------------------------------------
// Balances and nonces at the tip

const totalsOf = (t: BalanceTotals): Totals => ({
  balance: BigInt(t.balance),
  total_sent: BigInt(t.total_sent),
  total_received: BigInt(t.total_received),
  total_fees_sent: BigInt(t.total_fees_sent),
  total_miner_rewards: BigInt(t.total_miner_rewards),
});

/** Running totals per asset ('stx' or an FT asset id); only `asset` when given. */
export function servedAssetTotals(s: Serving, principal: string, asset?: string): Map<string, Totals> {
  const out = new Map<string, Totals>();
  const id = principalIdOf(s.store, principal);
  if (id === undefined) return out;
  if (asset !== undefined) {
    const t = s.store.balances.getBinaryFast(assetKey(id, asset));
    if (t) out.set(asset, totalsOf(readTotals(t)));
    return out;
  }
  for (const { key, value } of s.store.balances.getRange(assetRange(id))) out.set(assetOfKey(key), totalsOf(readTotals(value)));
  return out;
}

/** The principal's positive FT balances at the tip (GET /extended/v2/addresses/:principal/balances/ft). */
export function servedFtBalances(s: Serving, principal: string): Array<{ token: string; balance: string }> {
  return [...servedAssetTotals(s, principal)].filter(([asset, t]) => asset !== 'stx' && t.balance > 0n).map(([token, t]) => ({ token, balance: t.balance.toString() }));
}

/** NFT holdings per asset as the reference counts them (received - sent). */
export function servedNftCounts(s: Serving, principal: string): Array<{ asset: string; count: bigint; sent: bigint; received: bigint }> {
  const out = [];
  const id = principalIdOf(s.store, principal);
  if (id === undefined) return [];
  for (const { key, value } of s.store.nftCounts.getRange(assetRange(id))) {
    const [sent, received] = readNftCounts(value);
    out.push({ asset: assetOfKey(key), sent: BigInt(sent), received: BigInt(received), count: BigInt(received - sent) });
  }
  return out;
}

/** The tip block's fields the lock state reads. */
function tipInfo(s: Serving) {
  const tip = s.view.meta.tip;
  return tip ? blockDocOf(s.store, tip.index_block_hash) : undefined;
}

/** Burn block height of the canonical block at `height` (0 when there is none). */
function burnHeightAt(s: Serving, height: number): number {
  for (const ibh of indexHashesAt(s.store, height)) if (s.view.isCanonical(ibh)) return blockDocOf(s.store, ibh)?.burn_block_height ?? 0;
  return 0;
}

/** Lock facts looked at before answering from ClickHouse instead. */
const LOCK_SCAN = 5_000;

/** The newest anchored canonical lock row per source in `kinds` that applies at burn height `burn`,
 *  from the principal's lock facts newest first (as latestLocks reads them from the engine);
 *  undefined past LOCK_SCAN facts. */
function latestServedLocks(s: Serving, principal: string, kinds: string[], burn: number): Map<string, LockRow> | undefined {
  const latest = new Map<string, LockRow>();
  let scanned = 0;
  for (const { value: f } of s.store.locks.getRange({ start: [principal, Number.MAX_SAFE_INTEGER], end: [principal, -1], reverse: true })) {
    if (++scanned > LOCK_SCAN) return undefined;
    if (f.index_block_hash === '' || latest.has(f.kind) || !kinds.includes(f.kind)) continue;
    const flags = s.view.placementFlags(f);
    if (!flags.canonical || !flags.microblock_canonical) continue;
    if (!lockApplies({ kind: f.kind, asset_event_type: f.asset_event_type, unlock: BigInt(f.unlock_height) }, burn)) continue;
    latest.set(f.kind, { kind: f.kind, asset_event_type: f.asset_event_type, tx_id: f.tx_id, block_height: f.block_height, index_block_hash: f.index_block_hash, locked_amount: f.amount, unlock: f.unlock_height });
    if (latest.size === kinds.length) break;
  }
  return latest;
}

/** The v1 lock state at the tip. */
export function servedLockStateV1(s: Serving, principal: string): LockState | undefined {
  const tip = tipInfo(s);
  if (!tip) return undefined;
  const kinds = v1LockKinds(tip, tip.burn_block_height);
  const latest = latestServedLocks(s, principal, kinds, tip.burn_block_height);
  if (!latest) return undefined;
  const chosen = v1LockFrom(kinds, latest, tip.block_height);
  return lockStateOf(chosen, chosen ? burnHeightAt(s, chosen.lockHeight) : 0);
}

/** GET /extended/v2/addresses/:principal/balances/stx: the balance and PoX-4 lock at the tip. */
export function servedStxBalanceV2(s: Serving, principal: string, includeMempool: boolean): Record<string, unknown> | undefined {
  const tip = tipInfo(s);
  const latest = tip && latestServedLocks(s, principal, ['pox4'], tip.burn_block_height);
  if (!tip || !latest) return undefined;
  const stx = servedAssetTotals(s, principal, 'stx').get('stx');
  const pending = includeMempool ? servedPendingDelta(s, principal) : undefined;
  return formatStxBalanceV2(stx?.balance ?? 0n, stx?.total_miner_rewards ?? 0n, v2LockFrom(latest.get('pox4'), tip.burn_block_height), pending);
}

/** The pending delta of the committed mempool. */
export function servedPendingDelta(s: Serving, principal: string): PendingDelta {
  return pendingDeltaOf(
    principal,
    s.view.pendingOf(principal).map((e) => ({ ...e, amount: BigInt(e.amount) })),
  );
}

const NONCE_TXS = 25;

/** GET /extended/v1/address/:principal/nonces without a block. */
export function servedNonces(s: Serving, principal: string): Nonces | undefined {
  if (s.view.hasLiveMicroblocks || s.view.isDirty(principal)) return undefined;
  const own = listOf(s, principal)?.newestFirst(LIST.OWN, 0, NONCE_TXS) ?? [];
  const facts = own.map(({ entry }) => readFact(entry.fact, entry.roles));
  const asSender = facts.flatMap((f) => (f.nonce === undefined ? [] : [f.nonce]));
  const asSponsor = facts.flatMap((f) => (f.sponsor_nonce === undefined ? [] : [f.sponsor_nonce]));
  const mempool: number[] = [];
  for (const e of s.view.pendingOf(principal)) {
    if (e.sender_address === principal) mempool.push(e.nonce);
    if (e.sponsored && e.sponsor_address === principal && e.sponsor_nonce !== null) mempool.push(e.sponsor_nonce);
  }
  return noncesOf(asSender, asSponsor, mempool);
}
