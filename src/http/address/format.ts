// Address rows → the reference API's balance, event and transfer objects.
import { clarityValue } from '../../render/values.ts';
import type { PrincipalEventRow } from '../../render/rows.ts';
export type { PrincipalEventRow } from '../../render/rows.ts';
export { eventCounts, formatTransfers } from '../../render/transfers.ts';
import type { LockState, PendingDelta, Totals } from './balance-queries.ts';


/** The STX balance object (v1); the mempool fields only when `pending` is given. */
export function formatStxBalance(t: Totals, lock: LockState, pending?: PendingDelta): Record<string, unknown> {
  const out: Record<string, unknown> = {
    balance: t.balance.toString(),
    total_sent: t.total_sent.toString(),
    total_received: t.total_received.toString(),
    total_fees_sent: t.total_fees_sent.toString(),
    total_miner_rewards_received: t.total_miner_rewards.toString(),
    ...formatLock(lock),
  };
  if (pending) Object.assign(out, formatPending(t.balance, pending));
  return out;
}

/** The v2 STX balance object; the mempool fields only when `pending` is given. */
export function formatStxBalanceV2(balance: bigint, minerRewards: bigint, lock: LockState, pending?: PendingDelta): Record<string, unknown> {
  return {
    balance: balance.toString(),
    total_miner_rewards_received: minerRewards.toString(),
    ...formatLock(lock),
    ...(pending ? formatPending(balance, pending) : {}),
  };
}

export function formatLock(lock: LockState) {
  return {
    lock_tx_id: lock.lock_tx_id,
    locked: lock.locked.toString(),
    lock_height: lock.lock_height,
    burnchain_lock_height: lock.burnchain_lock_height,
    burnchain_unlock_height: lock.burnchain_unlock_height,
  };
}

export function formatPending(balance: bigint, p: PendingDelta) {
  return {
    estimated_balance: (balance + p.inbound - p.outbound).toString(),
    pending_balance_inbound: p.inbound.toString(),
    pending_balance_outbound: p.outbound.toString(),
  };
}

/** The reference's sort of FT and NFT maps: by asset identifier, as JavaScript's localeCompare. */
export const byAssetName = <T extends { asset: string }>(a: T, b: T): number => a.asset.localeCompare(b.asset);

/** A TransactionEvent (the /assets list) of an stx, stx_lock, ft or nft row. */
export function formatAssetEvent(e: PrincipalEventRow): Record<string, unknown> {
  const head = { event_index: e.event_index, tx_id: e.tx_id };
  switch (e.kind) {
    case 'stx_lock':
      // Reference quirk: its /assets list shows every STX lock event with locked_amount "1" and
      // unlock_height 1 (all recorded answers; /tx events show the real values).
      return { ...head, event_type: 'stx_lock', stx_lock_event: { locked_amount: '1', unlock_height: 1, locked_address: e.sender } };
    case 'stx': {
      const asset: Record<string, string> = { asset_event_type: e.asset_event_type, sender: e.sender, recipient: e.recipient, amount: e.amount };
      if (e.asset_event_type === 'transfer' && e.memo) asset.memo = e.memo;
      return { ...head, event_type: 'stx_asset', asset };
    }
    case 'ft':
      return { ...head, event_type: 'fungible_token_asset', asset: { asset_event_type: e.asset_event_type, asset_id: e.asset_identifier, sender: e.sender, recipient: e.recipient, amount: e.amount } };
    default:
      return {
        ...head,
        event_type: 'non_fungible_token_asset',
        asset: { asset_event_type: e.asset_event_type, asset_id: e.asset_identifier, sender: e.sender, recipient: e.recipient, value: clarityValue(e.value) },
      };
  }
}

/** v2 /addresses/:address/transactions/:tx_id/events item (of an engine row or a stored event). */
export function formatAddressTxEvent(e: Pick<PrincipalEventRow, 'kind' | 'event_index' | 'asset_event_type' | 'asset_identifier' | 'sender' | 'recipient' | 'amount' | 'value'>): Record<string, unknown> {
  const parties = { ...(e.sender ? { sender: e.sender } : {}), ...(e.recipient ? { recipient: e.recipient } : {}) };
  switch (e.kind) {
    case 'ft':
      return { type: 'ft', event_index: e.event_index, data: { type: e.asset_event_type, amount: e.amount, asset_identifier: e.asset_identifier, ...parties } };
    case 'nft':
      return { type: 'nft', event_index: e.event_index, data: { type: e.asset_event_type, asset_identifier: e.asset_identifier, value: clarityValue(e.value), ...parties } };
    default:
      return { type: 'stx', event_index: e.event_index, data: { type: e.asset_event_type, amount: e.amount, ...parties } };
  }
}


