// Test helper: the official client's two channels, subscribed to everything a fixture touches,
// recording each message with its cursor.
import { connectWebSocketClient, StacksApiSocketClient, type StacksApiWebSocketClient } from '@stacks/blockchain-api-client';

export interface Received {
  /** `block`, `microblock`, `mempool`, `transaction`, `address-transaction`, `address-stx-balance`, `reorg`. */
  kind: string;
  /** The object: height, hash, tx id, `principal|tx id`, principal. */
  key: string;
  cursor: string;
  payload: Record<string, unknown>;
}

export interface Interest {
  txIds: string[];
  principals: string[];
}

type Any = Record<string, unknown>;
const RPC_KINDS: Record<string, string> = { block: 'block', microblock: 'microblock', mempool: 'mempool', tx_update: 'transaction', address_tx_update: 'address-transaction', address_balance_update: 'address-stx-balance', nft_event: 'nft-event', reorg: 'reorg' };

export function keyOf(kind: string, p: Any, address?: string): string {
  switch (kind) {
    case 'block':
      return String(p.height);
    case 'microblock':
      return String(p.microblock_hash);
    case 'address-transaction':
      return `${address}|${(p.tx as Any).tx_id}`;
    case 'address-stx-balance':
      return String(address);
    case 'reorg':
      return 'reorg';
    case 'nft-event':
      return `${p.tx_id}|${p.event_index}`;
    default:
      return String(p.tx_id);
  }
}

/** Socket.IO: every topic through the official client (subscriptions in the handshake). */
export function socketIoCollector(url: string, interest: Interest, opts: { cursor?: string } = {}) {
  const got: Received[] = [];
  const topics = ['block', 'microblock', 'mempool', 'nft-event', ...interest.txIds.map((t) => `transaction:${t}`), ...interest.principals.flatMap((p) => [`address-transaction:${p}`, `address-stx-balance:${p}`])];
  const client = new StacksApiSocketClient({ url, subscriptions: topics as never, socketOpts: { reconnectionDelay: 100, reconnectionDelayMax: 500, auth: opts.cursor ? { cursor: opts.cursor } : {} } });
  // The official client's typed events, listened to loosely (the cursor is an extra argument).
  const on = (event: string, listener: (...args: unknown[]) => void) => (client.socket as unknown as { on(e: string, f: (...a: unknown[]) => void): void }).on(event, listener);
  const record = (kind: string, payload: Any, meta: unknown, address?: string) => {
    const cursor = (meta as { cursor: string }).cursor;
    got.push({ kind, key: keyOf(kind, payload, address), cursor, payload });
    // Reconnects resume after the last message.
    client.socket.auth = { cursor };
  };
  for (const kind of ['block', 'microblock', 'mempool', 'nft-event', 'reorg']) on(kind, (payload, meta) => record(kind, payload as Any, meta));
  for (const t of interest.txIds) on(`transaction:${t}`, (tx, meta) => record('transaction', tx as Any, meta));
  for (const p of interest.principals) {
    on(`address-transaction:${p}`, (a, tx, meta) => record('address-transaction', tx as Any, meta, a as string));
    on(`address-stx-balance:${p}`, (a, b, meta) => record('address-stx-balance', b as Any, meta, a as string));
  }
  const connected = new Promise<void>((resolve, reject) => {
    client.socket.once('connect', () => resolve());
    client.socket.once('connect_error', (e) => reject(e));
  });
  return { got, client, connected, close: () => client.socket.close() };
}

/** JSON-RPC: subscribed with the official client's methods; messages read off its socket. */
export async function jsonRpcCollector(url: string, interest: Interest) {
  const got: Received[] = [];
  const client: StacksApiWebSocketClient = await connectWebSocketClient(url);
  let calls = 0;
  (client.webSocket as unknown as { addEventListener(e: string, f: (ev: { data: unknown }) => void): void }).addEventListener('message', (ev) => {
    const msg = JSON.parse(String(ev.data)) as Any;
    if (msg.method === undefined) return;
    const kind = RPC_KINDS[String(msg.method)];
    const params = msg.params as Any;
    got.push({ kind, key: keyOf(kind, params, params.address as string | undefined), cursor: String(msg.cursor), payload: params });
  });
  const count = () => calls++;
  await client.subscribeBlocks(count);
  await client.subscribeMicroblocks(count);
  await client.subscribeMempool(count);
  await client.subscribeNftEventUpdates(count);
  for (const t of interest.txIds) await client.subscribeTxUpdates(t, count);
  for (const p of interest.principals) {
    await client.subscribeAddressTransactions(p, count);
    await client.subscribeAddressBalanceUpdates(p, count);
  }
  return { got, client, callbacks: () => calls, close: () => client.webSocket.close() };
}
