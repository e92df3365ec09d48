// Address answers from the serving store, for the reads a wallet makes on every screen: a
// principal's txs (v1, with transfers, v2) at the tip, one tx with its transfers, balances and
// nonces. `undefined`: not answerable here (the caller asks ClickHouse) — a principal whose lists
// could not be kept exactly, or an answer that involves unconfirmed microblocks.
import type { Serving } from '../tx/served.ts';
import { canonicalPlacement, minedTxJson } from '../tx/served.ts';
import { newestFirst } from '../tx/served-lists.ts';
import { LIST, principalFactOf, txDocOf, type BalanceTotals } from '../../serving/store.ts';
import { storedListLength } from '../../serving/list-overlay.ts';
import type { AssetEvent, PrincipalTxFact } from '../../serving/docs.ts';
import { SINGLE_WITH_TRANSFERS_ROLES, listsRow } from '../../workers/address-index.ts';
import { eventCounts, formatTransfers } from '../../render/transfers.ts';
import type { PrincipalEventRow } from '../../render/rows.ts';
import { lockApplies, lockStateOf, pendingDeltaOf, v1LockFrom, v1LockKinds, type LockRow, type LockState, type PendingDelta, type Totals } from './balance-queries.ts';
import { noncesOf, type Nonces } from './nonce-queries.ts';

interface Page {
  limit: number;
  offset: number;
}

/** A page of a principal's list: placement ids newest first and the list's total (0 for an empty page). */
function listPage(s: Serving, list: number, principal: string, page: Page): { total: number; pids: number[] } | undefined {
  if (s.view.isDirty(principal)) return undefined;
  const length = storedListLength(s.store, list, principal);
  const pids = newestFirst(s, list, principal, length, page.offset, page.limit);
  return { total: pids.length ? length : 0, pids };
}

const listJson = (page: Page, total: number, results: string[]) => `{"limit":${page.limit},"offset":${page.offset},"total":${total},"results":[${results.join(',')}]}`;

/** GET /extended/v1/address/:principal/transactions at the tip. */
export function servedTransactionsV1(s: Serving, principal: string, q: Page & { exclude_function_args?: boolean }): string | undefined {
  const p = listPage(s, LIST.V1, principal, q);
  if (!p) return undefined;
  const results: string[] = [];
  for (const pid of p.pids) {
    const doc = txDocOf(s.store, pid);
    if (!doc) return undefined;
    results.push(minedTxJson(s, pid, doc, { excludeFunctionArgs: q.exclude_function_args }));
  }
  return listJson(q, p.total, results);
}

/** The with_transfers record of one tx: the reference counts the origin's fee as sent. */
function withTransfersJson(principal: string, tx: string, doc: { sender_address: string; fee_rate: string }, events: AssetEvent[]): string {
  let sent = doc.sender_address === principal ? BigInt(doc.fee_rate || '0') : 0n;
  let received = 0n;
  for (const e of events) {
    if (e.kind !== 'stx') continue;
    if (e.sender === principal) sent += BigInt(e.amount);
    if (e.recipient === principal) received += BigInt(e.amount);
  }
  const transfers = JSON.stringify(formatTransfers(events as unknown as PrincipalEventRow[])).slice(1, -1);
  return `{"tx":${tx},"stx_sent":"${sent}","stx_received":"${received}",${transfers}}`;
}

interface ListedFact {
  pid: number;
  fact: PrincipalTxFact;
}

function factsOf(s: Serving, principal: string, pids: number[]): ListedFact[] | undefined {
  const out: ListedFact[] = [];
  for (const pid of pids) {
    const fact = principalFactOf(s.store, principal, pid);
    if (!fact) return undefined;
    out.push({ pid, fact });
  }
  return out;
}

/** GET /extended/v1/address/:principal/transactions_with_transfers at the tip. */
export function servedTransactionsWithTransfers(s: Serving, principal: string, q: Page): string | undefined {
  const p = listPage(s, LIST.WITH_TRANSFERS, principal, q);
  const listed = p && factsOf(s, principal, p.pids);
  if (!p || !listed) return undefined;
  // As the reference: the page re-sorted by (block_height, tx_index), keeping list order on ties.
  const sorted = listed.map((l, i) => ({ ...l, i })).sort((a, b) => b.fact.block_height - a.fact.block_height || b.fact.tx_index - a.fact.tx_index || a.i - b.i);
  const results: string[] = [];
  for (const { pid, fact } of sorted) {
    const doc = txDocOf(s.store, pid);
    if (!doc) return undefined;
    results.push(withTransfersJson(principal, minedTxJson(s, pid, doc), doc, fact.events));
  }
  return listJson(q, p.total, results);
}

/** GET /extended/v2/addresses/:address/transactions (contract calls rendered without the ABI, as the reference). */
export function servedTransactionsV2(s: Serving, principal: string, q: Page & { exclude_function_args?: boolean }): string | undefined {
  if (s.view.hasLiveMicroblocks) return undefined;
  const p = listPage(s, LIST.V2, principal, q);
  const listed = p && factsOf(s, principal, p.pids);
  if (!p || !listed) return undefined;
  const results: string[] = [];
  for (const { pid, fact } of listed) {
    const doc = txDocOf(s.store, pid);
    if (!doc) return undefined;
    const tx = minedTxJson(s, pid, doc, { withAbi: false, excludeFunctionArgs: q.exclude_function_args });
    results.push(`{"tx":${tx},"stx_sent":"${fact.stx_sent}","stx_received":"${fact.stx_received}","events":${JSON.stringify(eventCounts(fact.events as unknown as PrincipalEventRow[]))}}`);
  }
  return listJson(q, p.total, results);
}

/** GET /extended/v1/address/:principal/:tx_id/with_transfers; null: no such tx, or the principal has no part in it. */
export function servedWithTransfers(s: Serving, principal: string, txId: string): string | null {
  const placed = canonicalPlacement(s, txId);
  if (!placed || placed === 'unanchored') return null;
  const fact = principalFactOf(s.store, principal, placed.pid);
  if (!fact || !listsRow(SINGLE_WITH_TRANSFERS_ROLES, fact.roles)) return null;
  return withTransfersJson(principal, minedTxJson(s, placed.pid, placed.doc), placed.doc, fact.events);
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
  if (asset !== undefined) {
    const t = s.store.balances.get([principal, asset]);
    if (t) out.set(asset, totalsOf(t));
    return out;
  }
  for (const { key, value } of s.store.balances.getRange({ start: [principal], end: [principal, '\uffff'] })) out.set((key as [string, string])[1], totalsOf(value));
  return out;
}

/** NFT holdings per asset as the reference counts them (received - sent). */
export function servedNftCounts(s: Serving, principal: string): Array<{ asset: string; count: bigint; sent: bigint; received: bigint }> {
  const out = [];
  for (const { key, value } of s.store.nftCounts.getRange({ start: [principal], end: [principal, '\uffff'] })) {
    const [sent, received] = value;
    out.push({ asset: (key as [string, string])[1], sent: BigInt(sent), received: BigInt(received), count: BigInt(received - sent) });
  }
  return out;
}

/** The tip block's fields the lock state reads. */
function tipInfo(s: Serving) {
  const tip = s.view.meta.tip;
  return tip ? s.store.blockDocs.get(tip.index_block_hash) : undefined;
}

/** Burn block height of the canonical block at `height` (0 when there is none). */
function burnHeightAt(s: Serving, height: number): number {
  for (const { key } of s.store.heights.getRange({ start: [height], end: [height, '\uffff'] })) {
    const ibh = (key as [number, string])[1];
    if (s.view.isCanonical(ibh)) return s.store.blockDocs.get(ibh)?.burn_block_height ?? 0;
  }
  return 0;
}

/** Lock facts looked at before answering from ClickHouse instead. */
const LOCK_SCAN = 5_000;

/** The v1 lock state at the tip, from the principal's lock facts newest first. */
export function servedLockStateV1(s: Serving, principal: string): LockState | undefined {
  const tip = tipInfo(s);
  if (!tip) return undefined;
  const kinds = v1LockKinds(tip, tip.burn_block_height);
  const latest = new Map<string, LockRow>();
  let scanned = 0;
  for (const { value: f } of s.store.locks.getRange({ start: [principal, Number.MAX_SAFE_INTEGER], end: [principal, -1], reverse: true })) {
    if (++scanned > LOCK_SCAN) return undefined;
    if (f.index_block_hash === '' || latest.has(f.kind) || !kinds.includes(f.kind)) continue;
    const flags = s.view.placementFlags(f);
    if (!flags.canonical || !flags.microblock_canonical) continue;
    if (!lockApplies({ kind: f.kind, asset_event_type: f.asset_event_type, unlock: BigInt(f.unlock_height) }, tip.burn_block_height)) continue;
    latest.set(f.kind, { kind: f.kind, asset_event_type: f.asset_event_type, tx_id: f.tx_id, block_height: f.block_height, index_block_hash: f.index_block_hash, locked_amount: f.amount, unlock: f.unlock_height });
    if (latest.size === kinds.length) break;
  }
  const chosen = v1LockFrom(kinds, latest, tip.block_height);
  return lockStateOf(chosen, chosen ? burnHeightAt(s, chosen.lockHeight) : 0);
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
  const length = storedListLength(s.store, LIST.OWN, principal);
  const facts = factsOf(s, principal, newestFirst(s, LIST.OWN, principal, length, 0, NONCE_TXS));
  if (!facts) return undefined;
  const asSender = facts.flatMap(({ fact }) => (fact.nonce === undefined ? [] : [fact.nonce]));
  const asSponsor = facts.flatMap(({ fact }) => (fact.sponsor_nonce === undefined ? [] : [fact.sponsor_nonce]));
  const mempool: number[] = [];
  for (const e of s.view.pendingOf(principal)) {
    if (e.sender_address === principal) mempool.push(e.nonce);
    if (e.sponsored && e.sponsor_address === principal && e.sponsor_nonce !== null) mempool.push(e.sponsor_nonce);
  }
  return noncesOf(asSender, asSponsor, mempool);
}
