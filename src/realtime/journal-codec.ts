// A log entry's journal messages as stored: references to what the serving store holds rather than
// the strings themselves — a tx of a stored block by its placement id (its index alone when it is
// the entry's own), a principal by its id (principal-ids.ts), other tx ids once per entry — so an
// entry's messages take a few bytes each, where their tx ids and principals repeated took ~1.7 KB
// per entry compressed (48 MB for the 100k-tx test chain, which the default retention keeps whole).
// Read back, each reference is resolved to the string again.
import { ByteReader, ByteWriter } from '../serving/bytes.ts';
import { PIDS_PER_ENTRY } from '../serving/changes.ts';
import type { MessageRef, NftScope, BlockRef } from './messages.ts';

const KIND = { block: 1, microblock: 2, mempool: 3, tx: 4, 'address-tx': 5, 'address-balance': 6, nft: 7, reorg: 8 } as const;
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

/** Tx ids named other than by placement, each once (a mempool tx's `mempool` and `tx` messages). */
class TxTable {
  readonly ids: string[] = [];
  private readonly index = new Map<string, number>();

  of(txId: string): number {
    let i = this.index.get(txId);
    if (i === undefined) {
      this.index.set(txId, (i = this.ids.length));
      this.ids.push(txId);
    }
    return i;
  }
}

/** A tx reference: its placement when the message has one, else its place in the entry's table. */
function writeTx(w: ByteWriter, kind: number, m: { tx: string; pid?: number }, logId: number, table: TxTable): void {
  if (m.pid === undefined) w.u8(kind).uint(table.of(m.tx));
  else if (Math.floor(m.pid / PIDS_PER_ENTRY) === logId) w.u8(kind | OWN_PID).uint(m.pid % PIDS_PER_ENTRY);
  else w.u8(kind | PID).uint(m.pid);
}

/** Entry `logId`'s messages: the tx table, then the messages. */
export function encodeMessages(logId: number, list: readonly MessageRef[], names: JournalNames): Uint8Array {
  const table = new TxTable();
  const w = new ByteWriter(16 + list.length * 6).uint(list.length);
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
        w.uint(names.idOf(m.p));
        break;
      case 'address-balance':
        w.u8(KIND['address-balance']).uint(names.idOf(m.p));
        break;
      case 'nft':
        w.u8(KIND.nft).u8(SCOPES.indexOf(m.scope)).hash(m.tx).uint(m.i).str(m.a).str(m.v);
        break;
      case 'reorg':
        w.u8(KIND.reorg);
        writeBlocks(w, m.left);
        writeBlocks(w, m.joined);
        break;
    }
  }
  const head = new ByteWriter(8 + table.ids.length * 33).uint(table.ids.length);
  for (const id of table.ids) head.hash(id);
  return head.raw(w.bytes()).bytes();
}

function readTable(r: ByteReader): string[] {
  const ids: string[] = [];
  for (let n = r.uint(); n > 0; n--) ids.push(r.hash());
  return ids;
}

/** Messages in an entry. */
export function messageCount(bytes: Uint8Array): number {
  const r = new ByteReader(bytes);
  readTable(r);
  return r.uint();
}

export function decodeMessages(logId: number, bytes: Uint8Array, lookups: JournalLookups): MessageRef[] {
  const r = new ByteReader(bytes);
  const table = readTable(r);
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
      case KIND.nft:
        out.push({ t: 'nft', scope: SCOPES[r.u8()], tx: r.hash(), i: r.uint(), a: r.str(), v: r.str() });
        break;
      case KIND.reorg:
        out.push({ t: 'reorg', left: readBlocks(r), joined: readBlocks(r) });
        break;
      default:
        throw new Error(`journal: unknown message kind ${kind}`);
    }
  }
  return out;
}
