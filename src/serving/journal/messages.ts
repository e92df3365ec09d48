// The committed message sequence: what one log entry announces to subscribers, derived from the
// serving changes of the batch that applied it. Only references are kept (ids, hashes,
// principals); payloads are rendered from the stored data when sent (src/realtime/render.ts), so a
// message is always what the REST answer for its object is.
import type { ServingChanges } from '../changes.ts';
import type { ServingStore } from '../store.ts';
import { batchTxs, nftEventsOf } from './nft-events.ts';

export type NftScope = 'all' | 'asset' | 'collection';

const NFT_SCOPES: NftScope[] = ['all', 'asset', 'collection'];

/** A block's place in a reorg: [index_block_hash, block_height]. */
export type BlockRef = [string, number];

export type MessageRef =
  | { t: 'block'; h: string; n: number }
  | { t: 'microblock'; h: string }
  | { t: 'mempool'; tx: string }
  /** `pid`: the placement that brought it, when there is one (the journal stores that, not the id). */
  | { t: 'tx'; tx: string; pid?: number }
  | { t: 'address-tx'; p: string; tx: string; pid?: number; principalId?: number }
  | { t: 'address-balance'; p: string }
  /** An NFT event (tx id, event index, asset identifier, value hex) for one of its three topics. */
  | { t: 'nft'; scope: NftScope; tx: string; i: number; a: string; v: string; pid?: number }
  | { t: 'reorg'; left: BlockRef[]; joined: BlockRef[] };

/** A position in the sequence: the message `index` of log entry `logId`. The empty cursor (0:-1)
 *  precedes everything. */
export interface Cursor {
  logId: number;
  index: number;
}

export const START: Cursor = { logId: 0, index: -1 };

export const formatCursor = (c: Cursor): string => `${c.logId}:${c.index}`;

/** `"<logId>:<index>"`, or null when it is not one. */
export function parseCursor(raw: unknown): Cursor | null {
  if (typeof raw !== 'string') return null;
  const m = /^(\d{1,15}):(-1|\d{1,9})$/.exec(raw);
  return m ? { logId: Number(m[1]), index: Number(m[2]) } : null;
}

export const cursorAfter = (a: Cursor, b: Cursor): boolean => a.logId > b.logId || (a.logId === b.logId && a.index > b.index);

/**
 * Where each object's message last appears among an entry's messages: a map per kind, keyed by the
 * message's own strings (an entry's hundred-odd messages built no key text each, as they did).
 */
class LastPlaces {
  private readonly byKind = new Map<string, Map<string, number>>();
  private readonly addressTx = new Map<string, Map<string, number>>();

  private map(kind: string): Map<string, number> {
    let m = this.byKind.get(kind);
    if (!m) this.byKind.set(kind, (m = new Map()));
    return m;
  }

  private slot(m: MessageRef): [Map<string, number>, string] {
    switch (m.t) {
      case 'block':
      case 'microblock':
        return [this.map(m.t), m.h];
      case 'mempool':
      case 'tx':
        return [this.map(m.t), m.tx];
      case 'address-tx': {
        let byTx = this.addressTx.get(m.p);
        if (!byTx) this.addressTx.set(m.p, (byTx = new Map()));
        return [byTx, m.tx];
      }
      case 'address-balance':
        return [this.map(m.t), m.p];
      case 'nft':
        return [this.map(m.t), `${m.scope}|${m.tx}|${m.i}`];
      case 'reorg':
        return [this.map(m.t), ''];
    }
  }

  set(m: MessageRef, i: number): void {
    const [map, key] = this.slot(m);
    map.set(key, i);
  }

  isLast(m: MessageRef, i: number): boolean {
    const [map, key] = this.slot(m);
    return map.get(key) === i;
  }
}

/** Collects one entry's messages; a repeated object keeps its last place (it is rendered once). */
class EntryMessages {
  private readonly list: MessageRef[] = [];
  /** NFT events: after the block and txs that carry them. */
  private readonly late: MessageRef[] = [];
  readonly left: BlockRef[] = [];
  readonly joined: BlockRef[] = [];

  add(m: MessageRef): void {
    this.list.push(m);
  }

  addLate(m: MessageRef): void {
    this.late.push(m);
  }

  finish(): MessageRef[] {
    const all = [...this.list, ...this.late];
    const last = new LastPlaces();
    all.forEach((m, i) => last.set(m, i));
    const out = all.filter((m, i) => last.isLast(m, i));
    // A reorg is announced before the blocks and txs it brought.
    return this.left.length > 0 ? [{ t: 'reorg', left: this.left, joined: this.joined }, ...out] : out;
  }
}

/** log entry id -> its messages in order, for the entries of a batch that announce anything.
 *  `store`: the committed documents (NFT events of blocks a reorg restores); `pendingOf`: a pending
 *  tx's committed entry (the writer keeps them in memory; else read from the store). */
export function messagesOf(changes: ServingChanges, store?: ServingStore, pendingOf = (txId: string) => store?.pending.get(txId)): Map<number, MessageRef[]> {
  const out = new Map<number, MessageRef[]>();
  let txs: ReturnType<typeof batchTxs> | undefined;
  // Principals of txs pending in this batch (the store shows them only once it committed).
  const pendingPrincipals = new Map<string, string[]>();
  const marks = changes.entryStarts;
  let mark = 0;
  let logId = 0;
  let entry: EntryMessages | null = null;
  const close = () => {
    const list = entry?.finish();
    if (list && list.length > 0) out.set(logId, list);
  };
  changes.ops.forEach((op, i) => {
    while (mark < marks.length && marks[mark].opIndex <= i) {
      close();
      logId = marks[mark++].logId;
      entry = new EntryMessages();
    }
    const e = (entry ??= new EntryMessages());
    switch (op.op) {
      case 'canonical': {
        const c = op.contribution;
        (op.canonical ? e.joined : e.left).push([op.index_block_hash, op.block_height]);
        if (op.canonical) e.add({ t: 'block', h: op.index_block_hash, n: op.block_height });
        for (const tx of c.txs) e.add({ t: 'tx', tx: tx.tx_id, pid: tx.pid });
        if (op.canonical) for (const en of c.entries) e.add({ t: 'address-tx', p: en.principal, tx: en.tx_id, pid: en.pid, principalId: en.principalId });
        for (const d of c.deltas) if (d.asset === 'stx') e.add({ t: 'address-balance', p: d.principal });
        // Its NFT events, after the block and txs that carry them.
        if (op.canonical && c.nft.length > 0) for (const n of nftEventsOf(c, (txs ??= batchTxs(changes)), store)) for (const scope of NFT_SCOPES) e.addLate({ t: 'nft', scope, ...n });
        break;
      }
      case 'microblock':
        e.add({ t: 'microblock', h: op.microblock_hash });
        break;
      case 'docs':
        // Txs streamed in microblocks (no anchor block yet).
        if (op.canonical === null) op.served.txs.forEach((t, i) => e.add({ t: 'tx', tx: t.doc.tx_id, pid: op.pidBase + i }));
        break;
      case 'mempool': {
        if (op.status === 'pending' && op.entry) e.add({ t: 'mempool', tx: op.tx_id });
        if (op.status !== 'confirmed') e.add({ t: 'tx', tx: op.tx_id });
        // The balance answer's pending amounts change as txs naming the principal enter or leave.
        if (op.entry) pendingPrincipals.set(op.tx_id, op.entry.principals);
        const named = op.entry?.principals ?? pendingPrincipals.get(op.tx_id) ?? pendingOf(op.tx_id)?.principals ?? [];
        for (const p of named) e.add({ t: 'address-balance', p });
        break;
      }
      case 'mempool-doc':
        break;
    }
  });
  close();
  return out;
}
