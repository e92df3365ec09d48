// Writes one processor batch's serving changes. Every put of a batch is made in one LMDB write
// transaction (its callback runs on this thread, the commit on lmdb's), together with the `applied`
// marker (the last log entry they cover): after a crash the store holds a batch wholly or not at
// all, and a redone batch whose entries the marker already covers is skipped, so the signed deltas
// are applied exactly once.
import { join } from 'node:path';
import type { ServingStore } from './store.ts';
import { appliedMarker } from './store.ts';
import type { ServingChanges, ServingOp, BlockContribution } from './changes.ts';
import { TxListOverlay, storedTxListLength } from './list-overlay.ts';
import { ListHeaders, PrincipalListOverlay } from './principal-list-overlay.ts';
import { LIST_FILTERS, inList } from './principal-list.ts';
import { PrincipalIds, type PrincipalIdBatch } from './principal-ids.ts';
import { TotalsOverlay } from './totals.ts';
import { TxIndexOverlay, loadPendingMirror, type PendingMirror } from './tx-index-overlay.ts';
import { txKey } from './tx-index.ts';
import { writeDocs, AppendedKeys } from './write-docs.ts';
import { writeJournal } from './journal/journal.ts';
import { assertRoomToWrite } from './free-space.ts';
import { writePageReleaser } from './resident.ts';
import { readStoreWriteResidentMb } from '../config/tuning.ts';

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

/** Whether a principal's part in a tx is in any list (the others are not kept). */
const listed = (roles: number): boolean => LIST_FILTERS.some((_, l) => inList(l, roles));

/** One batch's overlays: what it changes, gathered, then written at once. */
interface BatchWrites {
  txIndex: TxIndexOverlay;
  ids: PrincipalIdBatch;
  lists: PrincipalListOverlay;
  txList: TxListOverlay;
  totals: TotalsOverlay;
  view: ViewMeta;
  dirty: Set<string>;
}

export class ServingWriter {
  private readonly headers: ListHeaders;
  private readonly ids: PrincipalIds;
  private readonly appended: AppendedKeys;
  private readonly pending: PendingMirror;
  private txListLength: number | undefined;
  /** Called per item a batch writes: keeps the store's mapped pages within their budget while a
   *  batch's write runs (resident.ts). */
  private readonly releasePages: () => void;

  constructor(readonly store: ServingStore) {
    this.releasePages = writePageReleaser(join(store.dir, 'data.mdb'), readStoreWriteResidentMb(process.env));
    this.headers = new ListHeaders(store);
    this.ids = new PrincipalIds(store);
    this.appended = new AppendedKeys(store);
    this.pending = loadPendingMirror(store);
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
    const minedHere = changes.minedAt();
    const w: BatchWrites = {
      txIndex: new TxIndexOverlay(s, this.pending),
      ids: this.ids.batch(),
      lists: new PrincipalListOverlay(s, this.headers),
      txList: new TxListOverlay(s, (this.txListLength ??= storedTxListLength(s))),
      totals: new TotalsOverlay(s.balances, s.nftCounts),
      view: this.view(),
      dirty: new Set<string>(),
    };
    const appended = this.appended.batch();
    const abis = new Map<string, { h: number; abi: string }>();
    const view = w.view;
    // Run inside LMDB's write transaction: each put is written at once, not queued with a promise
    // and its value kept until the commit (a batch's queued puts outlived the young generation).
    const release = this.releasePages;
    const issue = (): void => {
      changes.ops.forEach((op, i) => {
        release();
        switch (op.op) {
          case 'docs':
            writeDocs(s, op, abis, w.txIndex, appended);
            break;
          case 'canonical':
            this.writeCanonical(op, w);
            break;
          case 'microblock':
            void s.microblocks.put(op.microblock_hash, op.ref);
            void s.microblocksByParent.put([op.ref.parent_index_block_hash, op.microblock_hash], null);
            break;
          case 'mempool-doc':
            // A tx mined canonically later in this batch is answered from its placement, and its
            // placement's document carries its raw bytes: its mempool document would only be removed.
            if ((minedHere.get(op.tx_id) ?? -1) > i) break;
            if (!op.doc) throw new Error(`the mempool document of ${op.tx_id} was not rendered`);
            void s.writes.mempoolDocs.put(txKey(op.tx_id), op.doc as Buffer);
            break;
          case 'mempool':
            w.txIndex.mempoolChange(op);
            // Every principal a message can name has an id, in log order (see writeCanonical).
            for (const p of op.entry?.principals ?? []) w.ids.idOf(p);
            break;
        }
      });
      w.lists.flush(release);
      w.txList.flush();
      w.totals.flush(release);
      w.txIndex.flush(changes, release);
      for (const p of w.dirty) void s.meta.put(`dirty:${p}`, true);
      if (changes.snapshot) {
        view.tip = changes.snapshot.tip;
        view.liveMicroblocks = changes.snapshot.liveMicroblocks;
        if (changes.snapshot.reorged) view.reorgGeneration++;
      }
      void s.meta.put('view', view);
      writeJournal(s, changes, logTo, logHead, w.ids, (txId) => this.pending.get(txId));
      w.ids.flush();
      void s.meta.put('applied', { logId: logTo });
    };
    const done = s.env.transaction(issue);
    return done.then(() => {
      w.ids.committed();
      w.lists.committed();
      w.txIndex.committed(changes);
      this.txListLength = w.txList.length;
      appended.committed();
      return view;
    });
  }

  private writeCanonical(op: Extract<ServingOp, { op: 'canonical' }>, w: BatchWrites): void {
    const s = this.store;
    const c: BlockContribution = op.contribution;
    const sign = op.canonical ? 1 : -1;
    // Principals get ids in log order whether or not a list keeps their part (the journal names them).
    const ids = c.entries.map((e) => (e.principalId = w.ids.idOf(e.principal)));
    if (op.canonical) {
      void s.nonCanonical.remove(op.index_block_hash);
      for (const t of c.txs) {
        w.txList.append(t.pid);
        // Mined canonically, a tx is answered from its placement; should a reorg return it to the
        // mempool, its mempool document is rendered again then.
        if (w.txIndex.wasInMempool(t.tx_id)) void s.writes.mempoolDocs.remove(txKey(t.tx_id));
      }
      c.entries.forEach((e, k) => {
        if (listed(e.roles)) w.lists.append(ids[k], { pid: e.pid, roles: e.roles, block_height: e.block_height, microblock_sequence: e.microblock_sequence, tx_index: e.tx_index, fact: e.fact });
      });
    } else {
      void s.nonCanonical.put(op.index_block_hash, op.block_height);
      for (const t of [...c.txs].reverse()) if (!w.txList.remove(t.pid)) w.dirty.add('');
      for (let k = c.entries.length - 1; k >= 0; k--) {
        const e = c.entries[k];
        if (listed(e.roles) && !w.lists.remove(ids[k], e.pid)) w.dirty.add(e.principal);
      }
    }
    const v = w.view;
    v.canonicalBlocks += sign;
    v.canonicalTxs += sign * c.txs.length;
    v.bootTxs += sign * c.txs.filter((t) => t.boot).length;
    for (const d of c.deltas) w.totals.addBalance(w.ids.idOf(d.principal), d.asset, d, sign);
    for (const [p, asset, sent, received] of c.nft) w.totals.addNft(w.ids.idOf(p), asset, sent, received, sign);
  }
}
