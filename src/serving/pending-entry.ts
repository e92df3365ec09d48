// A pending mempool tx as the serving store keeps it: what the mempool list, its filters, the
// pending balance delta and the mempool nonces read, decoded once when the tx is announced.
import type { DecodedTransaction } from '../stacks/codec/index.ts';
import { decodeTransaction } from '../stacks/codec/index.ts';
import { summarizeDecoded } from '../stacks/tx-summary.ts';
import type { PendingEntry } from './docs.ts';

export type PendingTx = Omit<PendingEntry, 'receipt_time' | 'log_id'>;

export function pendingEntryOf(d: DecodedTransaction, rawTx: string, principals: string[]): PendingTx {
  const s = summarizeDecoded(d);
  const transfer = d.payload.type === 'token_transfer' ? d.payload : undefined;
  return {
    tx_id: d.txId,
    sender_address: s.sender_address,
    sponsor_address: s.sponsor_address,
    sponsored: d.sponsored,
    fee_rate: s.fee_rate,
    type_id: s.type_id,
    contract_id: s.contract_id,
    recipient: transfer?.recipient ?? '',
    amount: transfer ? transfer.amount.toString() : '0',
    nonce: Number(d.nonce),
    sponsor_nonce: d.sponsorNonce === undefined ? null : Number(d.sponsorNonce),
    tx_size: Math.floor((rawTx.length - 2) / 2),
    principals,
  };
}

/** For a tx restored from an orphaned block (decoded again on the main thread; rare). */
export function pendingEntryOfRaw(txId: string, rawTx: string, principals: string[]): PendingTx | undefined {
  try {
    return pendingEntryOf(decodeTransaction(rawTx, { txId }), rawTx, principals);
  } catch {
    return undefined;
  }
}
