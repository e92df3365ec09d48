// v3 lists read straight from the serving store: a principal's v2 list entries and a block's
// placement ids, each document read as the few fields a v3 summary shows. Reading them through the
// v2 twin instead rendered its whole answer and parsed it again, two thirds of a page's CPU.
import { eventCountsOf } from '../address/served.ts';
import { placedDocOf, principalIdOf, type PlacedTxDoc } from '../../serving/reads.ts';
import { LIST, PrincipalList, type ListEntry } from '../../serving/principal-list.ts';
import { readFact } from '../../serving/principal-fact.ts';
import type { TxKey } from './cursor.ts';
import { txKeyOf, type SummaryTx } from './tx-shape.ts';
import type { Serving } from '../reads/source.ts';

/** A block's placement members, parsed once per distinct text (a page's txs share a few blocks). */
const placements = new Map<string, Record<string, unknown>>();
const PLACEMENTS_KEPT = 4096;

function placementOf(text: string): Record<string, unknown> {
  let p = placements.get(text);
  if (!p) {
    p = JSON.parse(`{${text}}`) as Record<string, unknown>;
    if (placements.size >= PLACEMENTS_KEPT) placements.delete(placements.keys().next().value!);
    placements.set(text, p);
  }
  return p;
}

// Top-level members of a document's body, found by text. A JSON string escapes its quotes, so `,"k":`
// occurs only where a member named k begins, and post conditions (the one nested part before
// tx_type) have none of these names. Bodies are ours (render/tx.ts): base, fields, then payload.
const HEAD_END = ',"post_condition_mode":';
const TX_INDEX = ',"tx_index":';
const TX_RESULT = ',"tx_result":';
const TX_TYPE = ',"tx_type":';

/** Where the body's sections are, or undefined when it is not laid out as render/tx.ts lays it. */
function sectionsOf(body: string): [number, number, number, number] | undefined {
  const head = body.indexOf(HEAD_END);
  const index = head < 0 ? -1 : body.indexOf(TX_INDEX, head);
  const result = index < 0 ? -1 : body.indexOf(TX_RESULT, index);
  const type = result < 0 ? -1 : body.indexOf(TX_TYPE, result);
  return type < 0 ? undefined : [head, index, result, type];
}

/**
 * The summary fields of a stored tx: its id, sender and sponsor, status, place, and payload (the
 * body's base, tx_index and tx_status, and its payload; the block's members from its frame). A body
 * that carries its own placement is parsed whole.
 */
export function summaryTxOf(p: PlacedTxDoc): SummaryTx {
  const { doc } = p;
  const at = p.placement ? sectionsOf(doc.body) : undefined;
  let tx: Record<string, unknown>;
  if (at) {
    const [head, index, result, type] = at;
    tx = JSON.parse(`{${doc.body.slice(0, head)}${doc.body.slice(index, result)}${doc.body.slice(type)}}`) as Record<string, unknown>;
    const b = placementOf(p.placement);
    tx.block_hash = b.block_hash;
    tx.block_height = b.block_height;
    tx.block_time = b.block_time;
    tx.burn_block_time = b.burn_block_time;
    tx.burn_block_height = b.burn_block_height;
    tx.parent_block_hash = b.parent_block_hash;
    tx.is_unanchored = b.is_unanchored;
    tx.index_block_hash = p.index_block_hash;
  } else tx = JSON.parse(`{${p.placement ? `${p.placement},` : ''}${doc.body}}`) as Record<string, unknown>;
  tx.microblock_sequence = doc.microblock_sequence;
  if (doc.call) tx.contract_call = { contract_id: doc.call.contract_id, function_name: doc.call.function_name };
  return tx as unknown as SummaryTx;
}

/** A stored tx's place in the v3 order without parsing its body (its tx_index is the body's: a
 *  streamed microblock tx may show another than its placement's). */
function keyOfPlaced(p: PlacedTxDoc): TxKey {
  const at = p.placement ? p.doc.body.indexOf(TX_INDEX) : -1;
  if (at < 0) return txKeyOf(summaryTxOf(p));
  const from = at + TX_INDEX.length;
  let end = from;
  while (end < p.doc.body.length && p.doc.body.charCodeAt(end) >= 48 && p.doc.body.charCodeAt(end) <= 57) end++;
  return { block_height: p.block_height, microblock_sequence: p.doc.microblock_sequence, tx_index: Number(p.doc.body.slice(from, end)) };
}

/** A listed tx whose document is read and placed, its summary parsed when first asked for. */
export class StoredTx {
  readonly key: TxKey;
  #tx: SummaryTx | undefined;
  constructor(private readonly placed: PlacedTxDoc) {
    this.key = keyOfPlaced(placed);
  }
  get tx(): SummaryTx {
    return (this.#tx ??= summaryTxOf(this.placed));
  }
}

/** Documents of placement ids, placed; undefined if one is not stored (the caller asks the twin). */
function storedTxs(s: Serving, pids: readonly number[]): StoredTx[] | undefined {
  const out: StoredTx[] = [];
  for (const pid of pids) {
    const p = pid >= 0 ? placedDocOf(s.store, pid) : undefined;
    if (!p) return undefined;
    out.push(new StoredTx(p));
  }
  return out;
}

/** A block's txs newest first, from its placement ids in the v2 list's order (oldest first). */
export function storedBlockTxs(s: Serving, oldestFirst: readonly number[]) {
  return {
    length: () => oldestFirst.length,
    /** undefined: a document is missing. */
    slice(offset: number, limit: number): SummaryTx[] | undefined {
      const end = oldestFirst.length - offset;
      const pids = oldestFirst.slice(Math.max(0, end - limit), Math.max(0, end)).reverse();
      return storedTxs(s, pids)?.map((t) => t.tx);
    },
  };
}

/** An entry of a principal's v2 list: the tx (parsed when asked for) and the principal's part in it. */
export class StoredAddressTx extends StoredTx {
  readonly stx_sent: string;
  readonly stx_received: string;
  readonly events: ReturnType<typeof eventCountsOf>;
  constructor(placed: PlacedTxDoc, entry: ListEntry) {
    super(placed);
    const fact = readFact(entry.fact, entry.roles);
    this.stx_sent = fact.stx_sent;
    this.stx_received = fact.stx_received;
    this.events = eventCountsOf(fact.events);
  }
}

/**
 * A principal's v2 list (newest first) from the store, or undefined when the store cannot answer
 * it now (unconfirmed microblocks, or the principal's list being rewritten by a reorg): as
 * servedTransactionsV2 decides.
 */
export function storedAddressTxs(s: Serving, principal: string) {
  if (s.view.hasLiveMicroblocks || s.view.isDirty(principal)) return undefined;
  const list = PrincipalList.open(s.store.lists, principalIdOf(s.store, principal));
  return {
    length: () => list?.length(LIST.V2) ?? 0,
    /** undefined: a document is missing. */
    slice(offset: number, limit: number): StoredAddressTx[] | undefined {
      const out: StoredAddressTx[] = [];
      for (const { entry } of list?.newestFirst(LIST.V2, offset, limit) ?? []) {
        const p = placedDocOf(s.store, entry.pid);
        if (!p) return undefined;
        out.push(new StoredAddressTx(p, entry));
      }
      return out;
    },
  };
}
