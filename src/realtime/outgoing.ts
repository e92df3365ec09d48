// A journal message rendered for both channels: the Socket.IO event and its arguments, and the
// JSON-RPC notification (serialized once, for every client). Both carry the message's cursor: as
// a last Socket.IO argument `{cursor}` and as a `cursor` member of the notification.
import type { ServingStore } from '../serving/store.ts';
import { blockDocOf } from '../serving/block-reads.ts';
import type { RestGet } from './render.ts';
import { formatCursor, type Cursor, type MessageRef } from '../serving/journal/messages.ts';
import type { JournalMessage } from '../serving/journal/journal.ts';
import { topicOf } from './topics.ts';

export interface Outgoing {
  cursor: Cursor;
  topic: string;
  /** Socket.IO event name and arguments (the cursor object last). */
  event: string;
  args: unknown[];
  /** JSON-RPC method and params. */
  method: string;
  params: unknown;
  /** The notification's text, made on first use. */
  frame(): string;
}

/** The reference's NftEvent, from the tx's REST answer (that one event, and the tx's place). */
async function nftEvent(m: Extract<MessageRef, { t: 'nft' }>, get: RestGet): Promise<Record<string, unknown> | undefined> {
  const tx = await get('tx', { tx_id: m.tx }, { event_offset: String(m.i), event_limit: '1' });
  const e = (tx?.events as Array<{ event_index: number; asset?: Record<string, unknown> }> | undefined)?.[0];
  if (!tx || !e?.asset || e.event_index !== m.i) return undefined;
  const { asset_id, asset_event_type, value, sender, recipient } = e.asset;
  const event: Record<string, unknown> = { asset_identifier: asset_id, asset_event_type, value, tx_id: tx.tx_id, tx_index: tx.tx_index, block_height: tx.block_height, event_index: e.event_index };
  if (sender) event.sender = sender;
  if (recipient) event.recipient = recipient;
  return event;
}

/** Txs as the reference's updates read them: streamed microblock txs included. */
const UNANCHORED = { unanchored: 'true' };

type Payload = { event: string; args: unknown[]; method: string; params: unknown };

async function payloadOf(m: MessageRef, get: RestGet, serving: ServingStore): Promise<Payload | undefined> {
  switch (m.t) {
    case 'block': {
      const doc = blockDocOf(serving, m.h);
      const block = doc && (await get('blockByHash', { hash: doc.block_hash }));
      return block && { event: 'block', args: [block], method: 'block', params: block };
    }
    case 'microblock': {
      const mb = await get('microblock', { hash: m.h });
      return mb && { event: 'microblock', args: [mb], method: 'microblock', params: mb };
    }
    case 'mempool': {
      const tx = await get('tx', { tx_id: m.tx }, UNANCHORED);
      return tx && { event: 'mempool', args: [tx], method: 'mempool', params: tx };
    }
    case 'tx': {
      const tx = await get('tx', { tx_id: m.tx }, UNANCHORED);
      return tx && { event: `transaction:${m.tx}`, args: [tx], method: 'tx_update', params: tx };
    }
    case 'address-tx': {
      const rec = await get('withTransfers', { principal: m.p, tx_id: m.tx });
      if (!rec) return undefined;
      const tx = rec.tx as Record<string, unknown>;
      // As the reference notifies it: the record with the address and the tx's id, status and type.
      const params = { address: m.p, tx_id: tx.tx_id, tx_status: tx.tx_status, tx_type: tx.tx_type, ...rec };
      return { event: `address-transaction:${m.p}`, args: [m.p, rec], method: 'address_tx_update', params };
    }
    case 'address-balance': {
      const balance = await get('stxBalance', { principal: m.p });
      return balance && { event: `address-stx-balance:${m.p}`, args: [m.p, balance], method: 'address_balance_update', params: { address: m.p, ...balance } };
    }
    case 'nft': {
      const event = await nftEvent(m, get);
      if (!event) return undefined;
      if (m.scope === 'all') return { event: 'nft-event', args: [event], method: 'nft_event', params: event };
      if (m.scope === 'asset') return { event: `nft-asset-event:${m.a}+${m.v}`, args: [m.a, m.v, event], method: 'nft_asset_event', params: event };
      return { event: `nft-collection-event:${m.a}`, args: [m.a, event], method: 'nft_collection_event', params: event };
    }
    case 'reorg': {
      const blocks = (list: Array<[string, number]>) => list.map(([index_block_hash, block_height]) => ({ index_block_hash, block_hash: blockDocOf(serving, index_block_hash)?.block_hash ?? null, block_height }));
      const body = { left: blocks(m.left), joined: blocks(m.joined) };
      return { event: 'reorg', args: [body], method: 'reorg', params: body };
    }
  }
}

/** The message rendered, or undefined when its object is not there to render. */
export async function render(msg: JournalMessage, get: RestGet, serving: ServingStore): Promise<Outgoing | undefined> {
  const p = await payloadOf(msg.ref, get, serving);
  if (!p) return undefined;
  const cursor = formatCursor(msg.cursor);
  let text: string | undefined;
  return {
    cursor: msg.cursor,
    topic: topicOf(msg.ref),
    event: p.event,
    args: [...p.args, { cursor }],
    method: p.method,
    params: p.params,
    frame: () => (text ??= JSON.stringify({ jsonrpc: '2.0', method: p.method, params: p.params, cursor })),
  };
}
