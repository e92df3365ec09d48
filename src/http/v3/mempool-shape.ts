// v3 mempool transaction shapes, made from the v1 mempool tx objects.
import { memoOf, senderFields, type TxInclude, type V1Tx } from './tx-shape.ts';

/** The fields of a v1 mempool tx object that v3 reads beyond a mined one's. */
export interface V1MempoolTx extends Omit<V1Tx, 'block_height' | 'microblock_sequence' | 'tx_index' | 'block_hash' | 'block_time' | 'burn_block_height' | 'burn_block_time' | 'parent_block_hash' | 'event_count'> {
  receipt_time: number;
  replaced_by_tx_id?: string | null;
}

function typePayload(tx: V1MempoolTx, full: boolean, include: readonly TxInclude[]): Record<string, unknown> {
  switch (tx.tx_type) {
    case 'token_transfer': {
      const t = tx.token_transfer!;
      return { type: 'token_transfer', token_transfer: { recipient: t.recipient_address, amount: t.amount, memo: t.memo ? memoOf(t.memo) : null } };
    }
    case 'smart_contract': {
      const c = tx.smart_contract!;
      const source = full && include.includes('source_code') ? { source_code: c.source_code } : {};
      return { type: 'smart_contract', smart_contract: { clarity_version: c.clarity_version ?? null, contract_id: c.contract_id, ...source } };
    }
    case 'contract_call': {
      const c = tx.contract_call!;
      const args = full && include.includes('function_args') ? { function_args: (c.function_args ?? []).map((a) => ({ hex: a.hex, repr: a.repr })) } : {};
      return { type: 'contract_call', contract_call: { contract_id: c.contract_id, function_name: c.function_name, ...args } };
    }
    default:
      // Coinbase, tenure change and poison microblock txs show only their type here.
      return { type: tx.tx_type };
  }
}

/** The summary the mempool lists show. */
export function mempoolSummary(tx: V1MempoolTx, receiptBlockHeight: number): Record<string, unknown> {
  return { ...senderFields(tx), receipt_time: tx.receipt_time, receipt_block_height: receiptBlockHeight, status: tx.tx_status, ...typePayload(tx, false, []) };
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
    ...typePayload(tx, true, include),
  };
}
