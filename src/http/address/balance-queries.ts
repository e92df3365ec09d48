// Balances of one principal: STX totals, FT balances and NFT counts at the tip or as of a height,
// PoX lock state, and the pending mempool delta. Tip balances are one key lookup in the running
// `balances`; older heights sum principal_balance_changes of the canonical blocks up to them.
import type { Store } from '../../storage/client.ts';
import { rows } from '../reads/query.ts';
import { scopeWhere, SCOPE_PARAMS, burnHeightAt, type ChainTip, type ReadHeight, type Scope } from './scope.ts';
import { ROLE } from '../../stacks/roles.ts';
import { decodeTransaction } from '../../stacks/codec/index.ts';

export interface Totals {
  balance: bigint;
  total_sent: bigint;
  total_received: bigint;
  total_fees_sent: bigint;
  total_miner_rewards: bigint;
}

const ZERO: Totals = { balance: 0n, total_sent: 0n, total_received: 0n, total_fees_sent: 0n, total_miner_rewards: 0n };

const TOTAL_COLUMNS = `toString(sum(balance)) AS balance, toString(sum(total_sent)) AS total_sent, toString(sum(total_received)) AS total_received,
  toString(sum(total_fees_sent)) AS total_fees_sent, toString(sum(total_miner_rewards)) AS total_miner_rewards`;

function totals(r: Record<string, string> | undefined): Totals {
  if (!r) return { ...ZERO };
  return {
    balance: BigInt(r.balance ?? 0),
    total_sent: BigInt(r.total_sent ?? 0),
    total_received: BigInt(r.total_received ?? 0),
    total_fees_sent: BigInt(r.total_fees_sent ?? 0),
    total_miner_rewards: BigInt(r.total_miner_rewards ?? 0),
  };
}

function add(a: Totals, b: Totals): Totals {
  return {
    balance: a.balance + b.balance,
    total_sent: a.total_sent + b.total_sent,
    total_received: a.total_received + b.total_received,
    total_fees_sent: a.total_fees_sent + b.total_fees_sent,
    total_miner_rewards: a.total_miner_rewards + b.total_miner_rewards,
  };
}

/** Totals per asset ('stx' or an FT asset identifier), of the anchored canonical chain up to `at`. */
async function anchoredTotals(store: Store, principal: string, at: ReadHeight, asset?: string): Promise<Map<string, Totals>> {
  const assetFilter = asset === undefined ? '' : 'AND asset = {asset:String}';
  const list =
    at.maxHeight >= at.tip.block_height
      ? await rows<Record<string, string>>(store, `SELECT asset, ${TOTAL_COLUMNS} FROM balances WHERE principal = {p:String} ${assetFilter} GROUP BY asset`, { p: principal, asset })
      : await rows<Record<string, string>>(
          store,
          `SELECT asset, ${TOTAL_COLUMNS} FROM principal_balance_changes FINAL WHERE ${scopeWhere('principal_balance_changes', { principal, maxHeight: at.maxHeight })} ${assetFilter} GROUP BY asset`,
          { ...SCOPE_PARAMS({ principal, maxHeight: at.maxHeight }), asset },
        );
  return new Map(list.map((r) => [r.asset, totals(r)]));
}

/** What txs of unconfirmed microblocks on the tip did to the principal's STX and FTs. */
async function streamedTotals(store: Store, principal: string): Promise<Map<string, Totals>> {
  const scope: Scope = { principal, maxHeight: 0, unconfirmed: true };
  const where = `${scopeWhere('principal_events', scope)} AND index_block_hash = ''`;
  const [events, txs] = await Promise.all([
    rows<{ kind: string; asset_identifier: string; sender: string; recipient: string; amount: string }>(
      store,
      `SELECT kind, asset_identifier, sender, recipient, toString(amount) AS amount FROM principal_events FINAL WHERE ${where} AND kind IN ('stx', 'ft')`,
      SCOPE_PARAMS(scope),
    ),
    rows<{ tx_id: string; microblock_hash: string; roles: number }>(
      store,
      `SELECT tx_id, microblock_hash, roles FROM principal_txs FINAL WHERE ${scopeWhere('principal_txs', scope)} AND index_block_hash = '' AND bitAnd(roles, ${ROLE.SENDER | ROLE.SPONSOR}) != 0`,
      SCOPE_PARAMS(scope),
    ),
  ]);
  const out = new Map<string, Totals>();
  const entry = (asset: string) => out.get(asset) ?? (out.set(asset, { ...ZERO }), out.get(asset)!);
  for (const e of events) {
    const t = entry(e.kind === 'stx' ? 'stx' : e.asset_identifier);
    const a = BigInt(e.amount);
    if (e.sender === principal) Object.assign(t, { balance: t.balance - a, total_sent: t.total_sent + a });
    if (e.recipient === principal) Object.assign(t, { balance: t.balance + a, total_received: t.total_received + a });
  }
  if (txs.length) {
    const fees = await rows<{ fee_rate: string; sender_address: string; sponsor_address: string }>(
      store,
      `SELECT toString(fee_rate) AS fee_rate, sender_address, sponsor_address FROM txs
       WHERE tx_id IN {ids:Array(String)} AND index_block_hash = '' AND microblock_hash IN {mbs:Array(String)} LIMIT 1 BY tx_id, microblock_hash`,
      { ids: txs.map((t) => t.tx_id), mbs: txs.map((t) => t.microblock_hash) },
    );
    const t = entry('stx');
    for (const f of fees) {
      if ((f.sponsor_address || f.sender_address) !== principal) continue;
      t.balance -= BigInt(f.fee_rate);
      t.total_fees_sent += BigInt(f.fee_rate);
    }
  }
  return out;
}

/** STX and FT totals per asset as of `at`. */
export async function assetTotals(store: Store, principal: string, at: ReadHeight, asset?: string): Promise<Map<string, Totals>> {
  const [anchored, streamed] = await Promise.all([anchoredTotals(store, principal, at, asset), at.unconfirmed ? streamedTotals(store, principal) : new Map<string, Totals>()]);
  for (const [k, v] of streamed) if (asset === undefined || k === asset) anchored.set(k, add(anchored.get(k) ?? ZERO, v));
  return anchored;
}

/** NFT holdings per asset: received, sent and their difference, as of `at`. */
export async function nftCounts(store: Store, principal: string, at: ReadHeight): Promise<Array<{ asset: string; count: bigint; sent: bigint; received: bigint }>> {
  const scope: Scope = { principal, maxHeight: at.maxHeight, unconfirmed: at.unconfirmed };
  const list = await rows<{ asset: string; sent: string; received: string }>(
    store,
    `SELECT asset_identifier AS asset, toString(countIf(sender = {p:String})) AS sent, toString(countIf(recipient = {p:String})) AS received
     FROM principal_events FINAL WHERE ${scopeWhere('principal_events', scope)} AND kind = 'nft' GROUP BY asset_identifier`,
    SCOPE_PARAMS(scope),
  );
  return list.map((r) => ({ asset: r.asset, sent: BigInt(r.sent), received: BigInt(r.received), count: BigInt(r.received) - BigInt(r.sent) }));
}

export interface LockState {
  lock_tx_id: string;
  locked: bigint;
  lock_height: number;
  burnchain_lock_height: number;
  burnchain_unlock_height: number;
}

export const NO_LOCK: LockState = { lock_tx_id: '', locked: 0n, lock_height: 0, burnchain_lock_height: 0, burnchain_unlock_height: 0 };

export interface LockRow {
  kind: string;
  asset_event_type: string;
  tx_id: string;
  block_height: number;
  index_block_hash: string;
  locked_amount: string;
  unlock: string;
}

/**
 * Newest lock that still applies at burn height `burn`, per source: STX lock events (PoX-1) and
 * each PoX-2/3/4 operation log, where a `handle-unlock` older than `burn` ends the lock.
 */
async function latestLocks(store: Store, scope: Scope, burn: number, kinds: string[]): Promise<Map<string, LockRow>> {
  if (kinds.length === 0) return new Map();
  const list = await rows<LockRow>(
    store,
    `SELECT kind, asset_event_type, tx_id, block_height, index_block_hash, toString(amount) AS locked_amount, toString(unlock_height) AS unlock
     FROM principal_events FINAL
     WHERE ${scopeWhere('principal_events', scope)} AND kind IN {kinds:Array(String)}
       AND (kind = 'stx_lock' AND unlock_height >= {burn:UInt64}
            OR kind != 'stx_lock' AND (asset_event_type != 'handle-unlock' AND unlock_height >= {burn:UInt64}
                                       OR asset_event_type = 'handle-unlock' AND unlock_height < {burn:UInt64}))
     ORDER BY (index_block_hash = '') DESC, block_height DESC, microblock_sequence DESC, tx_index DESC, event_index DESC
     LIMIT 1 BY kind`,
    { ...SCOPE_PARAMS(scope), kinds, burn },
  );
  return new Map(list.map((r) => [r.kind, { ...r, block_height: Number(r.block_height) }]));
}

/** The lock sources the v1 state reads at burn height `burn`: PoX-1 lock events and PoX-2, -3 until
 *  their forced unlock heights, and PoX-4. */
export function v1LockKinds(tip: Pick<ChainTip, 'pox_v1_unlock_height' | 'pox_v2_unlock_height' | 'pox_v3_unlock_height'>, burn: number): string[] {
  const past = (unlock: number) => unlock > 0 && burn > unlock;
  return [
    ...(past(tip.pox_v1_unlock_height) ? [] : ['stx_lock']),
    ...(past(tip.pox_v2_unlock_height) ? [] : ['pox2']),
    ...(past(tip.pox_v3_unlock_height) ? [] : ['pox3']),
    'pox4',
  ];
}

/** Whether a lock row still applies at burn height `burn` (the newest such row per source counts). */
export function lockApplies(r: Pick<LockRow, 'kind' | 'asset_event_type'> & { unlock: bigint }, burn: number): boolean {
  const b = BigInt(burn);
  if (r.kind === 'stx_lock') return r.unlock >= b;
  return r.asset_event_type === 'handle-unlock' ? r.unlock < b : r.unlock >= b;
}

/** The v1 state from the newest applying row per source: the last source (in `kinds` order) with a
 *  lock wins, a handle-unlock clears. The lock height of an unconfirmed microblock row is tip + 1. */
export function v1LockFrom(kinds: string[], latest: Map<string, LockRow>, tipHeight: number): { row: LockRow; lockHeight: number } | undefined {
  let state: { row: LockRow; lockHeight: number } | undefined;
  for (const kind of kinds) {
    const r = latest.get(kind);
    if (!r) continue;
    state = r.asset_event_type === 'handle-unlock' ? undefined : { row: r, lockHeight: r.index_block_hash === '' ? tipHeight + 1 : r.block_height };
  }
  return state;
}

export function lockStateOf(chosen: { row: LockRow; lockHeight: number } | undefined, burnchainLockHeight: number): LockState {
  if (!chosen) return NO_LOCK;
  return {
    lock_tx_id: chosen.row.tx_id,
    locked: BigInt(chosen.row.locked_amount),
    lock_height: chosen.lockHeight,
    burnchain_lock_height: burnchainLockHeight,
    burnchain_unlock_height: Number(chosen.row.unlock),
  };
}

/** The v1 lock state: PoX-1 lock events, then PoX-2, -3 (each until its forced unlock) and -4. */
export async function lockStateV1(store: Store, principal: string, at: ReadHeight): Promise<LockState> {
  const burn = at.maxHeight >= at.tip.block_height ? at.tip.burn_block_height : await burnHeightAt(store, at.maxHeight);
  const kinds = v1LockKinds(at.tip, burn);
  const latest = await latestLocks(store, { principal, maxHeight: at.maxHeight, unconfirmed: at.unconfirmed }, burn, kinds);
  const chosen = v1LockFrom(kinds, latest, at.tip.block_height);
  return lockStateOf(chosen, chosen ? await burnHeightAt(store, chosen.lockHeight) : 0);
}

/**
 * The v2 lock state: PoX-4 only, at the tip. As in the reference, burnchain_lock_height is the
 * burn height of the tip block, not of the block that locked.
 */
export async function lockStateV2(store: Store, principal: string, at: ReadHeight): Promise<LockState> {
  const latest = await latestLocks(store, { principal, maxHeight: at.tip.block_height }, at.tip.burn_block_height, ['pox4']);
  return v2LockFrom(latest.get('pox4'), at.tip.burn_block_height);
}

/** The v2 state from the newest PoX-4 row that applies at the tip's burn height `tipBurn`. */
export function v2LockFrom(r: LockRow | undefined, tipBurn: number): LockState {
  if (!r || r.asset_event_type === 'handle-unlock') return NO_LOCK;
  return {
    lock_tx_id: r.tx_id,
    locked: BigInt(r.locked_amount),
    lock_height: r.block_height,
    burnchain_lock_height: tipBurn,
    burnchain_unlock_height: Number(r.unlock),
  };
}

export interface PendingDelta {
  inbound: bigint;
  outbound: bigint;
}

/** Pending mempool txs naming the principal as sender, sponsor or token-transfer recipient: the
 *  current pending set's txs naming it (sql/0003), with their status confirmed in mempool_status. */
export async function pendingMempoolTxs(store: Store, principal: string): Promise<Array<{ tx_id: string; raw_tx: string; sender_address: string; sponsor_address: string; fee_rate: string; type_id: string }>> {
  return rows(
    store,
    `SELECT tx_id, raw_tx, sender_address, sponsor_address, toString(fee_rate) AS fee_rate, type_id FROM mempool_txs
     WHERE tx_id IN (
         SELECT tx_id FROM mempool_status
         WHERE tx_id IN (SELECT tx_id FROM mempool_pending FINAL WHERE has(principals, {p:String}))
         GROUP BY tx_id HAVING argMax(status, version) = 'pending')
     LIMIT 1 BY tx_id`,
    { p: principal },
  );
}

/** A pending tx as the pending delta reads it. */
export interface PendingTransfer {
  sender_address: string;
  sponsor_address: string;
  sponsored: boolean;
  fee_rate: string;
  amount: bigint;
  recipient: string;
}

/** The reference's pending STX delta: amounts and fees the principal sends, amounts it receives. */
export function pendingDeltaOf(principal: string, txs: Iterable<PendingTransfer>): PendingDelta {
  let inbound = 0n;
  let outbound = 0n;
  for (const m of txs) {
    // As the reference: the sender is charged amount + fee even when a sponsor pays the fee.
    if (m.sender_address === principal) outbound += m.amount + BigInt(m.fee_rate);
    if (m.sponsored && m.sponsor_address === principal) outbound += BigInt(m.fee_rate);
    if (m.recipient === principal) inbound += m.amount;
  }
  return { inbound, outbound };
}

export async function pendingDelta(store: Store, principal: string): Promise<PendingDelta> {
  const txs: PendingTransfer[] = [];
  for (const m of await pendingMempoolTxs(store, principal)) {
    try {
      const d = decodeTransaction(m.raw_tx);
      const transfer = d.payload.type === 'token_transfer' ? d.payload : undefined;
      txs.push({ ...m, sponsored: d.sponsored, amount: transfer?.amount ?? 0n, recipient: transfer?.recipient ?? '' });
    } catch {
      // undecodable rows are not counted
    }
  }
  return pendingDeltaOf(principal, txs);
}
