// Backfills SQL alone cannot do: rows a migration's new tables need in stores made before it, derived
// from the facts those stores hold by the same decoders the ingest runs. Each runs once, right after
// its migration's statements (src/storage/migrate.ts).
import type { Store } from './client.ts';
import { RowSet } from '../workers/rows.ts';
import { insertRowSet } from './insert-row-set.ts';
import { writeBnsTx, writeSubdomainRows, BNS_CONTRACTS, type IndexedEvent, type NodeAttachment } from '../workers/bns.ts';
import type { NodeEvent } from '../workers/decode-tx-events.ts';
import { backfillAnalytics } from './backfill-analytics.ts';

const q = async <T>(store: Store, query: string, params: Record<string, unknown> = {}): Promise<T[]> =>
  (await store.client.query({ query, query_params: params, format: 'JSONEachRow' })).json<T>();

interface StoredTx {
  tx_id: string;
  index_block_hash: string;
  microblock_hash: string;
  block_height: number;
  microblock_sequence: number;
  tx_index: number;
  status: string;
  raw_tx: string;
}

/** sql/0026: BNS names and namespaces from the stored BNS prints (with the NFT transfers of their txs
 *  and bare name-renewal calls), subdomains from the stored attachments. */
async function backfillBns(store: Store): Promise<void> {
  const ids = [...BNS_CONTRACTS];
  const logs = await q<{ tx_id: string; index_block_hash: string; microblock_hash: string; event_index: number; contract_identifier: string; topic: string; value: string }>(
    store,
    `SELECT tx_id, index_block_hash, microblock_hash, event_index, contract_identifier, topic, value FROM contract_logs
     WHERE contract_identifier IN {ids:Array(String)} LIMIT 1 BY tx_id, index_block_hash, microblock_hash, event_index`,
    { ids },
  );
  const txs = await q<StoredTx>(
    store,
    `SELECT tx_id, index_block_hash, microblock_hash, block_height, microblock_sequence, tx_index, toString(status) AS status, raw_tx FROM txs
     WHERE index_block_hash != '' AND (tx_id IN {logged:Array(String)} OR (contract_id IN {ids:Array(String)} AND function_name = 'name-renewal'))
     LIMIT 1 BY tx_id, index_block_hash, microblock_hash`,
    { ids, logged: [...new Set(logs.map((l) => l.tx_id))] },
  );
  const transfers = await q<{ tx_id: string; index_block_hash: string; microblock_hash: string; event_index: number; asset_identifier: string; recipient: string; value: string }>(
    store,
    `SELECT tx_id, index_block_hash, microblock_hash, event_index, asset_identifier, recipient, value FROM nft_events
     WHERE tx_id IN {logged:Array(String)} AND asset_event_type = 'transfer' LIMIT 1 BY tx_id, index_block_hash, microblock_hash, event_index`,
    { logged: [...new Set(logs.map((l) => l.tx_id))] },
  );
  const key = (r: { tx_id: string; index_block_hash: string; microblock_hash: string }) => `${r.tx_id}|${r.index_block_hash}|${r.microblock_hash}`;
  const events = new Map<string, IndexedEvent[]>();
  const add = (k: string, e: IndexedEvent) => (events.get(k) ?? events.set(k, []).get(k)!).push(e);
  for (const l of logs) add(key(l), { index: Number(l.event_index), event: { txid: l.tx_id, event_index: Number(l.event_index), type: 'contract_event', contract_event: { contract_identifier: l.contract_identifier, topic: l.topic, raw_value: l.value } } as NodeEvent });
  for (const t of transfers) add(key(t), { index: Number(t.event_index), event: { txid: t.tx_id, event_index: Number(t.event_index), type: 'nft_transfer_event', nft_transfer_event: { asset_identifier: t.asset_identifier, recipient: t.recipient, raw_value: t.value } } as NodeEvent });
  const rows = new RowSet();
  for (const tx of txs) {
    const list = (events.get(key(tx)) ?? []).sort((a, b) => a.index - b.index);
    writeBnsTx(rows, { txid: tx.tx_id, tx_index: Number(tx.tx_index), status: tx.status, raw_tx: tx.raw_tx, microblock_hash: tx.microblock_hash, microblock_sequence: Number(tx.microblock_sequence) }, list, {
      index_block_hash: tx.index_block_hash,
      block_height: Number(tx.block_height),
    });
  }
  const attachments = await q<NodeAttachment>(store, `SELECT * FROM attachments WHERE contract_id IN {ids:Array(String)} LIMIT 1 BY tx_id, index_block_hash, attachment_index`, { ids });
  writeSubdomainRows(rows, attachments);
  await insertRowSet(store, rows, 'backfill');
}

export const BACKFILLS: Record<number, (store: Store) => Promise<void>> = { 26: backfillBns, 50: backfillAnalytics };
