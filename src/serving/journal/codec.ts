// A log entry's journal messages as stored: references to what the serving store holds rather than
// the strings themselves — a tx of a stored block by its placement id (its index alone when it is
// the entry's own), a principal by its id (principal-ids.ts), other tx ids once per entry — so an
// entry's messages take a few bytes each, where their tx ids and principals repeated took ~1.7 KB
// per entry compressed (48 MB for the 100k-tx test chain, which the default retention keeps whole).
// An NFT event's three messages (one per scope) carry the event once, its asset identifier from the
// entry's string table. Read back, each reference is resolved to the string again.
import { ByteReader, ByteWriter } from '../bytes.ts';
import { PIDS_PER_ENTRY } from '../changes.ts';
import type { MessageRef, NftScope, BlockRef } from './messages.ts';

/** `sameNft`: an NFT message whose event is the previous message's (another of its scopes). */
const KIND = { block: 1, microblock: 2, mempool: 3, tx: 4, 'address-tx': 5, 'address-balance': 6, nft: 7, reorg: 8, sameNft: 9 } as const;
/** Added to a tx reference's kind: it names a placement of this entry (by index), of another entry
 *  (by placement id), or a tx id of the entry's table. */
const OWN_PID = 0x40;
const PID = 0x80;
const SCOPES: NftScope[] = ['all', 'asset', 'collection'];

/** What encoding and decoding look up. */
export interface JournalNames {
  /** The principal's id (every principal a message names has one: the writer assigns them). */
  idOf(principal: string): number;
}

export interface JournalLookups {
  principalOf(id: number): string;
  txIdOf(pid: number): string;
}

function writeBlocks(w: ByteWriter, list: BlockRef[]): void {
  w.uint(list.length);
  for (const [h, n] of list) w.hash(h).uint(n);
}

function readBlocks(r: ByteReader): BlockRef[] {
  const out: BlockRef[] = [];
  for (let n = r.uint(); n > 0; n--) out.push([r.hash(), r.uint()]);
  return out;
}

/** Strings named other than by reference, each once per entry: tx ids (a mempool tx's `mempool`
 *  and `tx` messages), NFT asset identifiers. */
class Table {
  readonly ids: string[] = [];
  private readonly index = new Map<string, number>();

  of(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      this.index.set(s, (i = this.ids.length));
      this.ids.push(s);
    }
    return i;
  }
}


/** A tx reference: its placement when the message has one, else its place in the entry's table. */
function writeTx(w: ByteWriter, kind: number, m: { tx: string; pid?: number }, logId: number, table: Table): void {
  if (m.pid === undefined) w.u8(kind).uint(table.of(m.tx));
  else if (Math.floor(m.pid / PIDS_PER_ENTRY) === logId) w.u8(kind | OWN_PID).uint(m.pid % PIDS_PER_ENTRY);
  else w.u8(kind | PID).uint(m.pid);
}

/** Entry `logId`'s messages: the tx table, then the messages. */
export function encodeMessages(logId: number, list: readonly MessageRef[], names: JournalNames): Uint8Array {
  const table = new Table();
  const assets = new Table();
  const w = new ByteWriter(16 + list.length * 6).uint(list.length);
  let previous: MessageRef | undefined;
  for (const m of list) {
    switch (m.t) {
      case 'block':
        w.u8(KIND.block).hash(m.h).uint(m.n);
        break;
      case 'microblock':
        w.u8(KIND.microblock).hash(m.h);
        break;
      case 'mempool':
        w.u8(KIND.mempool).uint(table.of(m.tx));
        break;
      case 'tx':
        writeTx(w, KIND.tx, m, logId, table);
        break;
      case 'address-tx':
        writeTx(w, KIND['address-tx'], m, logId, table);
        w.uint(m.principalId ?? names.idOf(m.p));
        break;
      case 'address-balance':
        w.u8(KIND['address-balance']).uint(names.idOf(m.p));
        break;
      case 'nft': {
        const p = previous;
        if (p?.t === 'nft' && p.tx === m.tx && p.i === m.i) {
          w.u8(KIND.sameNft).u8(SCOPES.indexOf(m.scope));
          break;
        }
        writeTx(w, KIND.nft, m, logId, table);
        w.u8(SCOPES.indexOf(m.scope)).uint(m.i).uint(assets.of(m.a)).str(m.v);
        break;
      }
      case 'reorg':
        w.u8(KIND.reorg);
        writeBlocks(w, m.left);
        writeBlocks(w, m.joined);
        break;
    }
    previous = m;
  }
  const head = new ByteWriter(8 + table.ids.length * 33).uint(table.ids.length);
  for (const id of table.ids) head.hash(id);
  head.uint(assets.ids.length);
  for (const a of assets.ids) head.str(a);
  return head.raw(w.bytes()).bytes();
}

function readTable(r: ByteReader, read: () => string): string[] {
  const ids: string[] = [];
  for (let n = r.uint(); n > 0; n--) ids.push(read());
  return ids;
}

/** Messages in an entry. */
export function messageCount(bytes: Uint8Array): number {
  const r = new ByteReader(bytes);
  readTable(r, () => r.hash());
  readTable(r, () => r.str());
  return r.uint();
}

export function decodeMessages(logId: number, bytes: Uint8Array, lookups: JournalLookups): MessageRef[] {
  const r = new ByteReader(bytes);
  const table = readTable(r, () => r.hash());
  const assets = readTable(r, () => r.str());
  const out: MessageRef[] = [];
  for (let n = r.uint(); n > 0; n--) {
    const kind = r.u8();
    const tx = () => (kind & OWN_PID ? lookups.txIdOf(logId * PIDS_PER_ENTRY + r.uint()) : kind & PID ? lookups.txIdOf(r.uint()) : table[r.uint()]);
    switch (kind & ~(OWN_PID | PID)) {
      case KIND.block:
        out.push({ t: 'block', h: r.hash(), n: r.uint() });
        break;
      case KIND.microblock:
        out.push({ t: 'microblock', h: r.hash() });
        break;
      case KIND.mempool:
        out.push({ t: 'mempool', tx: table[r.uint()] });
        break;
      case KIND.tx:
        out.push({ t: 'tx', tx: tx() });
        break;
      case KIND['address-tx']: {
        const id = tx();
        out.push({ t: 'address-tx', tx: id, p: lookups.principalOf(r.uint()) });
        break;
      }
      case KIND['address-balance']:
        out.push({ t: 'address-balance', p: lookups.principalOf(r.uint()) });
        break;
      case KIND.nft: {
        const txId = tx();
        out.push({ t: 'nft', scope: SCOPES[r.u8()], tx: txId, i: r.uint(), a: assets[r.uint()], v: r.str() });
        break;
      }
      case KIND.sameNft: {
        const previous = out[out.length - 1];
        if (previous?.t !== 'nft') throw new Error('journal: an NFT scope without its event');
        out.push({ ...previous, scope: SCOPES[r.u8()] });
        break;
      }
      case KIND.reorg:
        out.push({ t: 'reorg', left: readBlocks(r), joined: readBlocks(r) });
        break;
      default:
        throw new Error(`journal: unknown message kind ${kind}`);
    }
  }
  return out;
}
