// Event rows -> the reference's TransactionEvent objects.
import { clarityValue } from './values.ts';
import type { EventRow } from './rows.ts';

/** The reference's TransactionEvent object for an event row. */
export function formatEvent(e: EventRow): Record<string, unknown> {
  const head = { event_index: e.event_index, event_type: e.kind, tx_id: e.tx_id };
  switch (e.kind) {
    case 'stx_asset': {
      const asset: Record<string, string> = { asset_event_type: e.a, sender: e.b, recipient: e.c, amount: e.d };
      if (e.a === 'transfer' && e.e) asset.memo = e.e;
      return { ...head, asset };
    }
    case 'stx_lock':
      return { ...head, stx_lock_event: { locked_amount: e.a, unlock_height: Number(e.b), locked_address: e.c } };
    case 'fungible_token_asset':
      return { ...head, asset: { asset_event_type: e.a, asset_id: e.b, sender: e.c, recipient: e.d, amount: e.e } };
    case 'non_fungible_token_asset':
      return { ...head, asset: { asset_event_type: e.a, asset_id: e.b, sender: e.c, recipient: e.d, value: clarityValue(e.e) } };
    case 'smart_contract_log':
      return { ...head, contract_log: { contract_id: e.a, topic: e.b, value: clarityValue(e.c) } };
  }
}
