// v3 mempool transaction shapes, made from the v1 mempool tx objects.
import { senderFields, typePayload, type TxInclude, type V1Tx } from './tx-shape.ts';

/** The fields of a v1 mempool tx object that v3 reads beyond a mined one's. */
export interface V1MempoolTx extends Omit<V1Tx, 'block_height' | 'microblock_sequence' | 'tx_index' | 'block_hash' | 'block_time' | 'burn_block_height' | 'burn_block_time' | 'parent_block_hash' | 'event_count'> {
  receipt_time: number;
  replaced_by_tx_id?: string | null;
}

/** The summary the mempool lists show. */
export function mempoolSummary(tx: V1MempoolTx, receiptBlockHeight: number): Record<string, unknown> {
  return { ...senderFields(tx), receipt_time: tx.receipt_time, receipt_block_height: receiptBlockHeight, status: tx.tx_status, ...typePayload(tx, false, [], true) };
}

/** A mempool tx in full (the tx lookup's answer for a tx not mined). */
export function mempoolTx(tx: V1MempoolTx, include: readonly TxInclude[], receiptBlockHeight = 0): Record<string, unknown> {
  return {
    ...senderFields(tx),
    receipt_time: tx.receipt_time,
    receipt_block_height: receiptBlockHeight,
    status: tx.tx_status,
    replaced_by_tx_id: tx.replaced_by_tx_id ?? null,
    ...(include.includes('post_conditions') ? { post_conditions: tx.post_conditions } : {}),
    ...typePayload(tx, true, include, true),
  };
}
