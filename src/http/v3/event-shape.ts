// v3 transaction events, made from the v1 events the tx family renders.
import { memoOf } from './tx-shape.ts';

/** The fields of a v1 event that v3 reads. */
export interface V1Event {
  event_index: number;
  event_type: string;
  asset?: { asset_event_type: string; asset_id?: string; sender?: string; recipient?: string; amount?: string; value?: { hex: string; repr: string }; memo?: string };
  contract_log?: { contract_id: string; topic: string; value: { hex: string; repr: string } };
  stx_lock_event?: { locked_amount: string; unlock_height: number; locked_address: string };
}

/** A transfer lists both parties, a mint its recipient, a burn its sender. */
function parties(a: NonNullable<V1Event['asset']>): Record<string, unknown> {
  if (a.asset_event_type === 'mint') return { recipient: a.recipient };
  if (a.asset_event_type === 'burn') return { sender: a.sender };
  return { sender: a.sender, recipient: a.recipient };
}

export function v3Event(e: V1Event): Record<string, unknown> {
  const at = { event_index: e.event_index };
  switch (e.event_type) {
    case 'smart_contract_log':
      return { ...at, type: 'contract_log', contract_log: { contract_id: e.contract_log!.contract_id, topic: e.contract_log!.topic, value: e.contract_log!.value } };
    case 'stx_lock':
      return { ...at, type: 'stx_lock', stx_lock: { amount: e.stx_lock_event!.locked_amount, unlock_bitcoin_height: e.stx_lock_event!.unlock_height, address: e.stx_lock_event!.locked_address } };
    case 'stx_asset': {
      const a = e.asset!;
      const memo = a.asset_event_type === 'transfer' ? { memo: a.memo ? memoOf(a.memo) : null } : {};
      return { ...at, type: 'stx_asset', stx_asset: { type: a.asset_event_type, ...parties(a), amount: a.amount, ...memo } };
    }
    case 'fungible_token_asset': {
      const a = e.asset!;
      return { ...at, type: 'ft_asset', ft_asset: { type: a.asset_event_type, asset_identifier: a.asset_id, ...parties(a), amount: a.amount } };
    }
    default: {
      const a = e.asset!;
      return { ...at, type: 'nft_asset', nft_asset: { type: a.asset_event_type, asset_identifier: a.asset_id, ...parties(a), value: a.value } };
    }
  }
}
