// Writes one processor batch's serving changes. Every put of a batch is issued in one event turn,
// so LMDB commits them in one transaction together with the `applied` marker (the last log entry
// they cover): after a crash the store holds a batch wholly or not at all, and a redone batch whose
// entries the marker already covers is skipped, so the signed deltas are applied exactly once.
import type { ServingStore, BalanceTotals } from './store.ts';
import type { MempoolState, PendingEntry } from './docs.ts';
import { appliedMarker, rawTxBytes } from './store.ts';
import type { ServingChanges, ServingOp, BlockContribution } from './changes.ts';
import { ListOverlay, ListLengths, GLOBAL_LIST } from './list-overlay.ts';
import { LIST } from './store.ts';
import { writeJournal } from '../realtime/journal.ts';
import { assertRoomToWrite } from './free-space.ts';
import { OWN_TX_ROLES, V1_TX_ROLES, V2_TX_ROLES, WITH_TRANSFERS_ROLES, listsRow, type RoleFilter } from '../workers/address-index.ts';

/** Counters of the committed chain kept beside the marker (see view.ts). */
export interface ViewMeta {
  tip: { index_block_hash: string; block_height: number } | null;
  liveMicroblocks: string[];
  canonicalBlocks: number;
  /** Canonical anchored txs in the global list, and how many of them are relabelled boot receipts. */
  canonicalTxs: number;
  bootTxs: number;
  reorgGeneration: number;
}

export const EMPTY_VIEW: ViewMeta = { tip: null, liveMicroblocks: [], canonicalBlocks: 0, canonicalTxs: 0, bootTxs: 0, reorgGeneration: 0 };

export const PRINCIPAL_LISTS: Array<[number, RoleFilter]> = [
  [LIST.V1, V1_TX_ROLES],
  [LIST.WITH_TRANSFERS, WITH_TRANSFERS_ROLES],
  [LIST.V2, V2_TX_ROLES],
  [LIST.OWN, OWN_TX_ROLES],
];

const ZERO: BalanceTotals = { balance: '0', total_sent: '0', total_received: '0', total_fees_sent: '0', total_miner_rewards: '0' };
const TOTAL_KEYS = ['balance', 'total_sent', 'total_received', 'total_fees_sent', 'total_miner_rewards'] as const;

/** Running totals and NFT counts of one batch, written once at the end. */
class TotalsOverlay {
  readonly balances = new Map<string, { key: [string, string]; t: BalanceTotals }>();
  readonly nft = new Map<string, { key: [string, string]; c: [number, number] }>();

  constructor(private readonly store: ServingStore) {}

  addBalance(principal: string, asset: string, d: Record<(typeof TOTAL_KEYS)[number], string>, sign: 1 | -1): void {
    const id = `${principal}|${asset}`;
    let e = this.balances.get(id);
    if (!e) this.balances.set(id, (e = { key: [principal, asset], t: { ...(this.store.balances.get([principal, asset]) ?? ZERO) } }));
    for (const k of TOTAL_KEYS) e.t[k] = (BigInt(e.t[k]) + BigInt(sign) * BigInt(d[k])).toString();
  }

  addNft(principal: string, asset: string, sent: number, received: number, sign: 1 | -1): void {
    const id = `${principal}|${asset}`;
    let e = this.nft.get(id);
    if (!e) this.nft.set(id, (e = { key: [principal, asset], c: [...(this.store.nftCounts.get([principal, asset]) ?? [0, 0])] as [number, number] }));
    e.c[0] += sign * sent;
    e.c[1] += sign * received;
  }

  /** Totals back at zero mean no canonical activity left (an orphaned block's): no entry, as a
   *  merged ClickHouse store shows it. */
  flush(): void {
    for (const { key, t } of this.balances.values()) {
      if (TOTAL_KEYS.every((k) => t[k] === '0')) void this.store.balances.remove(key);
      else void this.store.balances.put(key, t);
    }
    for (const { key, c } of this.nft.values()) {
      if (c[0] === 0 && c[1] === 0) void this.store.nftCounts.remove(key);
      else void this.store.nftCounts.put(key, c);
    }
  }
}

/** Tx id -> index of the op that mined it, of txs canonical in a block when the batch ends. */
function minedInBatch(changes: ServingChanges): Map<string, number> {
  const mined = new Map<string, number>();
  changes.ops.forEach((op, i) => {
    if (op.op !== 'canonical') return;
    for (const t of op.contribution.txs) {
      if (op.canonical) mined.set(t.tx_id, i);
      else mined.delete(t.tx_id);
    }
  });
  return mined;
}

/** A batch's mempool states, written once per tx at the end: a tx announced and mined in one
 *  batch gets its final state only, and no pending entry put and removed again. */
class MempoolOverlay {
  private readonly txs = new Map<string, { state: MempoolState; stored: boolean; pending: 'keep' | 'remove' | PendingEntry }>();

  constructor(private readonly store: ServingStore) {}

  change(op: Extract<ServingOp, { op: 'mempool' }>): void {
    let t = this.txs.get(op.tx_id);
    if (!t) {
      const stored = this.store.mempoolStates.get(op.tx_id);
      t = { state: stored ?? { status: op.status, reason: '', replaced_by: '', receipt_time: 0, first_log_id: op.logId }, stored: stored !== undefined, pending: 'keep' };
      this.txs.set(op.tx_id, t);
    }
    const prev = t.state;
    t.state = { status: op.status, reason: op.reason, replaced_by: op.replaced_by, receipt_time: op.receipt_time ?? prev.receipt_time, first_log_id: prev.first_log_id };
    if (op.status !== 'pending') t.pending = 'remove';
    else if (op.entry) t.pending = { ...op.entry, receipt_time: t.state.receipt_time, log_id: t.state.first_log_id };
  }

  flush(): void {
    const s = this.store;
    for (const [txId, t] of this.txs) {
      void s.mempoolStates.put(txId, t.state);
      // A pending entry is only ever put with a state: a tx first seen in this batch has none stored.
      if (t.pending === 'remove') {
        if (t.stored) void s.pending.remove(txId);
      } else if (t.pending !== 'keep') void s.pending.put(txId, t.pending);
    }
  }
}

export class ServingWriter {
  private readonly listLengths: ListLengths;

  constructor(readonly store: ServingStore) {
    this.listLengths = new ListLengths(store);
  }

  get appliedLogId(): number {
    return appliedMarker(this.store).logId;
  }

  view(): ViewMeta {
    return { ...EMPTY_VIEW, ...((this.store.meta.get('view') as ViewMeta | undefined) ?? {}) };
  }

  /** Issues every write of the batch and resolves once they are durable. `logHead`: the last
   *  entry in the event log now (the journal keeps only what will still be kept once it is reached). */
  write(changes: ServingChanges, logTo: number, logHead = logTo): Promise<ViewMeta> {
    const s = this.store;
    assertRoomToWrite(s.dir);
    const mempool = new MempoolOverlay(s);
    const minedHere = minedInBatch(changes);
    const lists = new ListOverlay(s, this.listLengths);
    const totals = new TotalsOverlay(s);
    const view = this.view();
    const abis = new Map<string, { h: number; abi: string }>();
    const dirty = new Set<string>();
    changes.ops.forEach((op, i) => {
      switch (op.op) {
        case 'docs':
          this.writeDocs(op, abis);
          break;
        case 'canonical':
          this.writeCanonical(op, lists, totals, view, dirty);
          break;
        case 'microblock':
          void s.microblocks.put(op.microblock_hash, op.ref);
          void s.microblocksByParent.put([op.ref.parent_index_block_hash, op.microblock_hash], null);
          break;
        case 'mempool-doc':
          // A tx mined canonically later in this batch is answered from its placement, and its
          // placement's document carries its raw bytes: its mempool document would only be removed.
          if ((minedHere.get(op.tx_id) ?? -1) > i) break;
          void s.mempoolDocs.put(op.tx_id, op.doc as Buffer);
          void s.rawTxs.put(op.tx_id, rawTxBytes(op.raw_tx));
          break;
        case 'mempool':
          mempool.change(op);
          break;
      }
    });
    lists.flush();
    totals.flush();
    mempool.flush();
    for (const p of dirty) void s.meta.put(`dirty:${p}`, true);
    if (changes.snapshot) {
      view.tip = changes.snapshot.tip;
      view.liveMicroblocks = changes.snapshot.liveMicroblocks;
      if (changes.snapshot.reorged) view.reorgGeneration++;
    }
    void s.meta.put('view', view);
    writeJournal(s, changes, logTo, logHead);
    const done = s.meta.put('applied', { logId: logTo });
    return done.then(() => view);
  }

  private writeDocs(op: Extract<ServingOp, { op: 'docs' }>, abis: Map<string, { h: number; abi: string }>): void {
    const s = this.store;
    const { served, pidBase } = op;
    served.txs.forEach((t, i) => {
      const pid = pidBase + i;
      const d = t.doc;
      void s.txDocs.put(pid, t.packed as Buffer);
      void s.txPlacements.put([d.tx_id, pid], { index_block_hash: d.index_block_hash, microblock_hash: d.microblock_hash, block_height: d.block_height });
      void s.rawTxs.put(d.tx_id, rawTxBytes(t.raw_tx));
      for (const [index, json] of t.allEvents ?? []) void s.txEvents.put([pid, index], json);
    });
    for (const p of served.principalTxs) void s.principalTxs.put([p.principal, pidBase + p.tx], p.packed as Buffer);
    for (const l of served.locks) {
      const f = l.fact;
      void s.locks.put([l.principal, f.block_height, l.microblock_sequence, l.tx_index, l.event_index, f.index_block_hash, f.microblock_hash], f);
    }
    const height = served.block?.block_height ?? 0;
    for (const [id, abi] of served.abis) {
      // As the reference reads it: the deploy with an ABI at the greatest height.
      const known = abis.get(id) ?? (s.abis.get(id) as { h: number; abi: string } | undefined);
      if (!known || height >= known.h) {
        abis.set(id, { h: height, abi });
        void s.abis.put(id, { h: height, abi });
      }
    }
    const b = served.block;
    if (b) {
      const { txLocal, v1Body, ...doc } = b;
      void s.blockDocs.put(b.index_block_hash, { ...doc, pids: txLocal.map((i) => (i < 0 ? -1 : pidBase + i)) });
      if (v1Body !== undefined) void s.blockV1Bodies.put(b.index_block_hash, v1Body);
      void s.blockHashes.put([b.block_hash, b.index_block_hash], null);
      void s.heights.put([b.block_height, b.index_block_hash], null);
      if (op.canonical === false) void s.nonCanonical.put(b.index_block_hash, b.block_height);
    }
  }

  private writeCanonical(op: Extract<ServingOp, { op: 'canonical' }>, lists: ListOverlay, totals: TotalsOverlay, view: ViewMeta, dirty: Set<string>): void {
    const s = this.store;
    const c: BlockContribution = op.contribution;
    const sign = op.canonical ? 1 : -1;
    if (op.canonical) {
      void s.nonCanonical.remove(op.index_block_hash);
      for (const t of c.txs) {
        lists.append(GLOBAL_LIST, '', t.pid);
        // Mined canonically, a tx is answered from its placement; should a reorg return it to the
        // mempool, its mempool document is rendered again then.
        void s.mempoolDocs.remove(t.tx_id);
      }
      for (const e of c.entries) for (const [list, filter] of PRINCIPAL_LISTS) if (listsRow(filter, e.roles)) lists.append(list, e.principal, e.pid);
    } else {
      void s.nonCanonical.put(op.index_block_hash, op.block_height);
      for (const t of [...c.txs].reverse()) if (!lists.remove(GLOBAL_LIST, '', t.pid)) dirty.add('');
      for (const e of [...c.entries].reverse()) {
        for (const [list, filter] of PRINCIPAL_LISTS) {
          if (listsRow(filter, e.roles) && !lists.remove(list, e.principal, e.pid)) dirty.add(e.principal);
        }
      }
    }
    view.canonicalBlocks += sign;
    view.canonicalTxs += sign * c.txs.length;
    view.bootTxs += sign * c.txs.filter((t) => t.boot).length;
    for (const d of c.deltas) totals.addBalance(d.principal, d.asset, d, sign);
    for (const [p, asset, sent, received] of c.nft) totals.addNft(p, asset, sent, received, sign);
  }

}
