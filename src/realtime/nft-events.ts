// The NFT events of a block that joins the canonical chain, for the real-time journal: read from
// the tx documents' event JSON — this batch's (not committed yet) or the store's (a block restored
// by a reorg was stored earlier).
import type { ServingStore } from '../serving/store.ts';
import { coldDocOf } from '../serving/reads.ts';
import type { BlockContribution, ServingChanges } from '../serving/changes.ts';
import type { StoredEvent } from '../serving/docs.ts';
import { INLINE_EVENTS } from '../serving/docs.ts';
import type { ServedTx } from '../workers/serving/tx-docs.ts';
import { eventJson, unpackTxDoc } from '../serving/codec.ts';

export interface NftEventRef {
  tx: string;
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

function eventsOf(pid: number, batch: Map<number, ServedTx>, store: ServingStore | undefined): StoredEvent[] {
  const t = batch.get(pid);
  if (t) return t.moreEvents ?? unpackTxDoc(t.packed).cold?.events ?? [];
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
    for (const stored of eventsOf(tx.pid, batch, store)) {
      if (stored[1] !== NFT_EVENT) continue;
      const i = stored[0];
      const e = JSON.parse(eventJson(tx.tx_id, stored)) as { event_type: string; asset?: { asset_id: string; value: { hex: string } } };
      if (e.event_type === 'non_fungible_token_asset' && e.asset) out.push({ tx: tx.tx_id, i, a: e.asset.asset_id, v: e.asset.value.hex });
    }
  }
  return out;
}
