// What a decoded payload gives the serving store, rendered in the decode worker from the rows it
// decoded: tx documents, the block document, per-principal facts, ABIs, mempool documents.
import type { Row, RowSet } from '../rows.ts';
import type { MempoolDoc } from '../../serving/docs.ts';
import { formatMempoolTx } from '../../render/tx.ts';
import { packMempoolDoc } from '../../serving/codec.ts';
import { packBlockRecord, type BlockRecord } from '../../serving/block-record.ts';
import { hexBytes } from '../../serving/bytes.ts';
import { compressValue } from '../../serving/lz4.ts';
import { DOC_DICTIONARY } from '../../serving/dictionaries.ts';
import { callPartOf, EVENT_TABLES, eventsByPlacement, jsonMembers, renderTxDocs } from './tx-docs.ts';
import { principalFacts } from './principal-facts.ts';
import type { ServedTx } from '../../serving/input.ts';
import type { ServedBlock, ServedRows } from '../../serving/input.ts';

/** The ClickHouse tables whose rows the documents are rendered from. */
export const SERVED_TABLES: ReadonlySet<string> = new Set(['txs', ...EVENT_TABLES, 'principal_txs', 'principal_events', 'contracts', 'blocks']);

const num = (v: unknown): number => Number(v ?? 0);

function blockRecord(b: Row, txs: readonly ServedTx[]): BlockRecord {
  const ids = b.tx_ids as string[];
  const mbs = b.tx_microblock_hashes as string[];
  const local = new Map(txs.map((t, i) => [`${t.doc.tx_id}|${t.doc.microblock_hash}`, i]));
  const txLocal = ids.map((id, i) => local.get(`${id}|${mbs[i]}`) ?? -1);
  return {
    index_block_hash: String(b.index_block_hash),
    block_hash: String(b.block_hash),
    block_height: num(b.block_height),
    parent_index_block_hash: String(b.parent_index_block_hash),
    parent_block_hash: String(b.parent_block_hash),
    parent_microblock_hash: String(b.parent_microblock_hash),
    parent_microblock_sequence: num(b.parent_microblock_sequence),
    burn_block_hash: String(b.burn_block_hash),
    burn_block_height: num(b.burn_block_height),
    burn_block_time: num(b.burn_block_time),
    miner_txid: String(b.miner_txid),
    block_time: num(b.block_time),
    tenure_height: num(b.tenure_height),
    execution_cost_read_count: num(b.execution_cost_read_count),
    execution_cost_read_length: num(b.execution_cost_read_length),
    execution_cost_runtime: num(b.execution_cost_runtime),
    execution_cost_write_count: num(b.execution_cost_write_count),
    execution_cost_write_length: num(b.execution_cost_write_length),
    tx_ids: ids,
    tx_microblock_hashes: mbs,
    tx_count: num(b.tx_count),
    pox_v1_unlock_height: num(b.pox_v1_unlock_height),
    pox_v2_unlock_height: num(b.pox_v2_unlock_height),
    pox_v3_unlock_height: num(b.pox_v3_unlock_height),
    positions: txLocal.map((i) => (i < 0 ? [0, 0] : [txs[i].doc.microblock_sequence, txs[i].doc.tx_index])),
    txLocal,
  };
}

/** Everything the serving store takes from a block or microblocks payload's rows. */
export function servedRows(rows: RowSet, bootFrom = Infinity): ServedRows {
  const captured = rows.captured;
  const b = captured.get('blocks')?.[0];
  const entryBlock = b && { index_block_hash: String(b.index_block_hash), block_height: num(b.block_height) };
  const { txs, placement } = renderTxDocs(captured, eventsByPlacement(captured), bootFrom, entryBlock);
  const { principalTxs, locks } = principalFacts(captured, txs);
  const abis: Array<[string, string]> = [];
  for (const c of captured.get('contracts') ?? []) if (typeof c.abi === 'string' && c.abi !== 'null') abis.push([String(c.contract_id), c.abi]);
  let block: ServedBlock | undefined;
  if (b && entryBlock) {
    const record = blockRecord(b, txs);
    block = { ...entryBlock, block_hash: record.block_hash, record: compressValue(packBlockRecord({ ...entryBlock, placement }, record), DOC_DICTIONARY) };
  }
  return { txs, principalTxs, locks, abis, block };
}

/** A mempool tx's document with its raw bytes, packed: its object without status, replacement and
 *  receipt time (set when answered). */
export function mempoolDoc(tx_id: string, raw_tx: string): Uint8Array {
  const obj = formatMempoolTx({ tx_id, raw_tx, receipt_time: 0, sender_address: '', sponsor_address: '', nonce: 0, fee_rate: '0', type_id: '', contract_id: '', function_name: '', log_id: 0, status: 'pending', reason: '', replaced_by: '' }, { abi: null });
  const call = obj.contract_call as Record<string, unknown> | undefined;
  obj.tx_status = obj.replaced_by_tx_id = obj.receipt_time = obj.receipt_time_iso = obj.contract_call = undefined;
  const doc: MempoolDoc = { body: jsonMembers(obj), raw: hexBytes(raw_tx) };
  if (call) doc.call = callPartOf(call);
  return packMempoolDoc(doc);
}
