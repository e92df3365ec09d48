// The NFT events of a block that joins the canonical chain, for the real-time journal: as the decode
// worker listed them for this batch's txs (not committed yet), or read from the tx documents' events
// in the store (a block restored by a reorg was stored earlier).
import type { ServingStore } from '../store.ts';
import { coldDocOf } from '../reads.ts';
import type { BlockContribution, ServingChanges } from '../changes.ts';
import type { StoredEvent } from '../docs.ts';
import { INLINE_EVENTS } from '../docs.ts';
import { eventJson } from '../codec.ts';
import type { ServedTx } from '../input.ts';

export interface NftEventRef {
  tx: string;
  /** The tx's placement (the journal stores it, not the id). */
  pid?: number;
  /** event_index */
  i: number;
  /** asset identifier */
  a: string;
  /** value hex */
  v: string;
}

const NFT_EVENT = 'non_fungible_token_asset';

/** Placement id -> the batch's tx, for the documents not committed yet. */
export function batchTxs(changes: ServingChanges): Map<number, ServedTx> {
  const out = new Map<number, ServedTx>();
  for (const op of changes.ops) if (op.op === 'docs') op.served.txs.forEach((t, i) => out.set(op.pidBase + i, t));
  return out;
}

/** The stored events of a placement of an earlier batch (a block a reorg restores). */
function storedEventsOf(pid: number, store: ServingStore | undefined): StoredEvent[] {
  const events = (store && coldDocOf(store, pid)?.events) ?? [];
  if (!store || events.length < INLINE_EVENTS) return events;
  const all: StoredEvent[] = [];
  for (const { key, value } of store.txEvents.getRange({ start: [pid, 0], end: [pid + 1, 0] })) all.push([(key as [number, number])[1], value[0], value[1]]);
  return all.length > 0 ? all : events;
}

/** The block's NFT events in list order (none unless some principal's NFT count moved). */
export function nftEventsOf(c: BlockContribution, batch: Map<number, ServedTx>, store: ServingStore | undefined): NftEventRef[] {
  if (c.nft.length === 0) return [];
  const out: NftEventRef[] = [];
  for (const tx of c.txs) {
    const t = batch.get(tx.pid);
    if (t) {
      // This batch's txs: the worker listed their NFT events.
      for (const [i, a, v] of t.nft ?? []) out.push({ tx: tx.tx_id, pid: tx.pid, i, a, v });
      continue;
    }
    for (const stored of storedEventsOf(tx.pid, store)) {
      if (stored[1] !== NFT_EVENT) continue;
      const i = stored[0];
      const e = JSON.parse(eventJson(tx.tx_id, stored)) as { event_type: string; asset?: { asset_id: string; value: { hex: string } } };
      if (e.event_type === 'non_fungible_token_asset' && e.asset) out.push({ tx: tx.tx_id, pid: tx.pid, i, a: e.asset.asset_id, v: e.asset.value.hex });
    }
  }
  return out;
}
