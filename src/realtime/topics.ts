// Topics as the Socket.IO channel names them (`block`, `transaction:<tx_id>`, …); the JSON-RPC
// channel's subscription params map to the same names. A message goes to one topic, a reorg to
// every client with a subscription.
import { isValidPrincipal } from '../stacks/codec/index.ts';
import type { MessageRef } from '../serving/journal/messages.ts';

/** Every client with any subscription. */
export const ALL = '*';

const TX_ID = /^0x[0-9a-f]{64}$/;

/** `0x` + 64 lowercase hex digits, or null. */
export function normalizeTxId(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const id = (raw.startsWith('0x') ? raw : `0x${raw}`).toLowerCase();
  return TX_ID.test(id) ? id : null;
}

/** The topic of a message. */
export function topicOf(m: MessageRef): string {
  switch (m.t) {
    case 'block':
    case 'microblock':
    case 'mempool':
      return m.t;
    case 'tx':
      return `transaction:${m.tx}`;
    case 'address-tx':
      return `address-transaction:${m.p}`;
    case 'address-balance':
      return `address-stx-balance:${m.p}`;
    case 'nft':
      return m.scope === 'all' ? 'nft-event' : m.scope === 'asset' ? `nft-asset-event:${m.a}+${m.v}` : `nft-collection-event:${m.a}`;
    case 'reorg':
      return ALL;
  }
}

/** A Socket.IO topic as the server keys it (tx ids normalized), or null when it is not valid. */
export function checkTopic(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 600) return null;
  if (raw === 'block' || raw === 'microblock' || raw === 'mempool' || raw === 'nft-event') return raw;
  const sep = raw.indexOf(':');
  if (sep < 0) return null;
  const kind = raw.slice(0, sep);
  const rest = raw.slice(sep + 1);
  switch (kind) {
    case 'transaction': {
      const id = normalizeTxId(rest);
      return id && `transaction:${id}`;
    }
    case 'address-transaction':
    case 'address-stx-balance':
      return isValidPrincipal(rest) ? raw : null;
    case 'nft-asset-event':
      return /^[^+]+\+0x[0-9a-fA-F]+$/.test(rest) ? raw : null;
    case 'nft-collection-event':
      return rest.length > 0 ? raw : null;
    default:
      return null;
  }
}

/** A JSON-RPC subscription (`{event, …}`): its topic and the result the reference answers with. */
export function rpcTopic(params: unknown): { topic: string; result: Record<string, unknown> } | { error: string } {
  if (!params || typeof params !== 'object') return { error: 'subscription requests must include an event name' };
  const p = params as Record<string, unknown>;
  switch (p.event) {
    case 'block':
    case 'microblock':
    case 'mempool':
      return { topic: p.event, result: {} };
    case 'nft_event':
      return { topic: 'nft-event', result: {} };
    case 'tx_update': {
      const id = normalizeTxId(p.tx_id);
      return id ? { topic: `transaction:${id}`, result: { tx_id: id } } : { error: 'invalid tx_id' };
    }
    case 'address_tx_update':
    case 'address_balance_update': {
      if (typeof p.address !== 'string' || !isValidPrincipal(p.address)) return { error: 'invalid address' };
      const kind = p.event === 'address_tx_update' ? 'address-transaction' : 'address-stx-balance';
      return { topic: `${kind}:${p.address}`, result: { address: p.address } };
    }
    case 'nft_asset_event': {
      const topic = checkTopic(`nft-asset-event:${String(p.asset_identifier)}+${String(p.value)}`);
      return topic ? { topic, result: { asset_identifier: p.asset_identifier, value: p.value } } : { error: 'invalid asset_identifier or value' };
    }
    case 'nft_collection_event': {
      const topic = typeof p.asset_identifier === 'string' ? checkTopic(`nft-collection-event:${p.asset_identifier}`) : null;
      return topic ? { topic, result: { asset_identifier: p.asset_identifier } } : { error: 'invalid asset_identifier' };
    }
    default:
      return { error: 'subscription request must use a valid event name' };
  }
}
