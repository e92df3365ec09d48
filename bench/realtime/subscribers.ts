// The soak bench's subscribers: many clients of both channels (the official client), each on one
// topic kind, tallying what arrives without keeping it (counts, order, duplicates, latency).
import { connectWebSocketClient, StacksApiSocketClient, type StacksApiWebSocketClient } from '@stacks/blockchain-api-client';

export type Kind = 'block' | 'mempool' | 'address';

export interface Tally {
  kind: Kind;
  channel: 'socket.io' | 'json-rpc';
  /** The topics it subscribed to (Socket.IO names). */
  topics: string[];
  received: number;
  /** Messages not after the one before (a duplicate or out of order). */
  notAfter: number;
  /** Sum of the received cursors' hashes (mod 2^48): with the count, compared to what was expected
   *  without keeping every cursor. */
  sum: number;
  last: [number, number];
  closed: boolean;
  /** Why the service closed it, when it said. */
  reason?: string;
}

/** Delivery latency: whole milliseconds, counted. */
export class Latency {
  private readonly counts = new Map<number, number>();
  n = 0;

  add(ms: number): void {
    const k = Math.max(0, Math.round(ms));
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    this.n++;
  }

  /** [ms, count] pairs, to carry across threads. */
  entries(): Array<[number, number]> {
    return [...this.counts];
  }

  static from(entries: Array<[number, number]>): Latency {
    const l = new Latency();
    for (const [k, c] of entries) {
      l.counts.set(k, c);
      l.n += c;
    }
    return l;
  }

  percentile(p: number): number {
    const target = Math.ceil((p / 100) * this.n);
    let seen = 0;
    for (const k of [...this.counts.keys()].sort((a, b) => a - b)) if ((seen += this.counts.get(k)!) >= target) return k;
    return NaN;
  }
}

export const HASH_MOD = 2 ** 48;

/** FNV-1a of the cursor text (32 bits). */
export function cursorHash(cursor: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < cursor.length; i++) h = Math.imul(h ^ cursor.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function topicsOf(kind: Kind, principal: string): string[] {
  return kind === 'address' ? [`address-transaction:${principal}`, `address-stx-balance:${principal}`] : [kind];
}

export class SubscriberPool {
  readonly tallies: Tally[] = [];
  readonly latency = new Latency();
  /** The worst latency of the messages of each log id (in feed order: when a stall happened). */
  readonly worstByLogId = new Map<number, number>();
  /** The same, by subscriber kind and channel ("block/socket.io"): says which path is slow. */
  readonly latencyByGroup = new Map<string, Latency>();
  private readonly closers: Array<() => void> = [];

  /** `postedAt`: when the observer POST of a log id was sent, on the clock `now` reads. */
  constructor(
    private readonly apiUrl: string,
    private readonly postedAt: (logId: number) => number | undefined,
    private readonly now: () => number = () => performance.now(),
  ) {}

  private onMessage(t: Tally, cursor: string): void {
    const now = this.now();
    const [logId, index] = cursor.split(':').map(Number);
    const sent = this.postedAt(logId);
    if (sent !== undefined) {
      this.latency.add(now - sent);
      if (!(this.worstByLogId.get(logId)! >= now - sent)) this.worstByLogId.set(logId, now - sent);
      const group = `${t.kind}/${t.channel}`;
      let l = this.latencyByGroup.get(group);
      if (!l) this.latencyByGroup.set(group, (l = new Latency()));
      l.add(now - sent);
    }
    t.received++;
    if (logId < t.last[0] || (logId === t.last[0] && index <= t.last[1])) t.notAfter++;
    t.sum = (t.sum + cursorHash(cursor)) % HASH_MOD;
    t.last = [logId, index];
  }

  async addSocketIo(kind: Kind, principal: string): Promise<void> {
    const topics = topicsOf(kind, principal);
    const t: Tally = { kind, channel: 'socket.io', topics, received: 0, notAfter: 0, sum: 0, last: [0, -1], closed: false };
    this.tallies.push(t);
    const client = new StacksApiSocketClient({ url: this.apiUrl, subscriptions: topics as never, socketOpts: { reconnection: false } });
    const socket = client.socket as unknown as { on(e: string, f: (...a: unknown[]) => void): void };
    for (const topic of topics) socket.on(topic, (...args) => this.onMessage(t, (args.at(-1) as { cursor: string }).cursor));
    client.socket.on('disconnect', () => (t.closed = true));
    socket.on('closing', (...args) => (t.reason = (args[0] as { reason?: string } | undefined)?.reason));
    this.closers.push(() => client.socket.close());
    await new Promise<void>((resolve, reject) => {
      client.socket.once('connect', () => resolve());
      client.socket.once('connect_error', reject);
    });
  }

  async addJsonRpc(kind: Kind, principal: string): Promise<void> {
    const topics = topicsOf(kind, principal);
    const t: Tally = { kind, channel: 'json-rpc', topics, received: 0, notAfter: 0, sum: 0, last: [0, -1], closed: false };
    this.tallies.push(t);
    const client: StacksApiWebSocketClient = await connectWebSocketClient(this.apiUrl);
    const ws = client.webSocket as unknown as { addEventListener(e: string, f: (ev: { data: unknown }) => void): void; close(): void };
    ws.addEventListener('message', (ev) => {
      const text = String(ev.data);
      // Only notifications carry a cursor member at the end.
      const at = text.lastIndexOf('"cursor":"');
      if (at >= 0 && text.startsWith('{"jsonrpc":"2.0","method"')) this.onMessage(t, text.slice(at + 10, text.indexOf('"', at + 10)));
    });
    ws.addEventListener('close', (ev) => {
      t.closed = true;
      t.reason = (ev as unknown as { reason?: string }).reason || undefined;
    });
    this.closers.push(() => ws.close());
    const noop = () => {};
    if (kind === 'block') await client.subscribeBlocks(noop);
    else if (kind === 'mempool') await client.subscribeMempool(noop);
    else {
      await client.subscribeAddressTransactions(principal, noop);
      await client.subscribeAddressBalanceUpdates(principal, noop);
    }
  }

  close(): void {
    for (const c of this.closers) c();
  }
}
