// Overlay and running-total rows the processor writes when canonical status changes.
import type { Batch } from './batch.ts';
import type { BlockState, MicroblockState } from './chain-state.ts';
import type { TxRef } from '../../workers/decoded.ts';
import { summarizeTx } from '../../stacks/tx-summary.ts';
import { negatedAmount, type Amount, type BalanceDelta } from '../../serving/input.ts';
import { principalsOf } from '../../stacks/tx-summary.ts';

export function blockCanonicalRow(b: BlockState, version: number) {
  return { block_height: b.block_height, index_block_hash: b.index_block_hash, block_hash: b.block_hash, canonical: b.canonical ? 1 : 0, version };
}

export function microblockCanonicalRow(m: MicroblockState, version: number) {
  return {
    microblock_hash: m.microblock_hash,
    parent_index_block_hash: m.parent_index_block_hash,
    microblock_sequence: m.microblock_sequence,
    canonical: m.canonical ? 1 : 0,
    index_block_hash: m.index_block_hash,
    block_hash: m.block_hash,
    block_height: m.block_height,
    burn_block_time: m.burn_block_time,
    burn_block_height: m.burn_block_height,
    burn_block_hash: m.burn_block_hash,
    version,
  };
}

/** The anchor (parent) block of a microblock stream, as the microblock row describes it. */
export interface MicroblockParent {
  block_height: number;
  block_hash: string;
  burn_block_hash: string;
  burn_block_height: number;
  burn_block_time: number;
}

export function microblockFactRow(m: MicroblockState, parentBlock: MicroblockParent, logId: number) {
  return {
    microblock_hash: m.microblock_hash,
    microblock_sequence: m.microblock_sequence,
    microblock_parent_hash: m.microblock_parent_hash,
    parent_index_block_hash: m.parent_index_block_hash,
    block_height: m.block_height,
    parent_block_height: parentBlock.block_height,
    parent_block_hash: parentBlock.block_hash,
    parent_burn_block_hash: parentBlock.burn_block_hash,
    parent_burn_block_height: parentBlock.burn_block_height,
    parent_burn_block_time: parentBlock.burn_block_time,
    tx_ids: m.tx_ids,
    log_id: logId,
  };
}

/** Adds (sign 1) or removes (sign -1) a block's balance changes from the running balances. */
export function addBalanceRows(batch: Batch, deltas: BalanceDelta[], sign: 1 | -1): void {
  const neg = (v: Amount) => (sign === 1 ? v : negatedAmount(v));
  batch.addRows(
    'balances',
    deltas.map((d) => ({
      principal: d.principal,
      asset: d.asset,
      balance: neg(d.balance),
      total_sent: neg(d.total_sent),
      total_received: neg(d.total_received),
      total_fees_sent: neg(d.total_fees_sent),
      total_miner_rewards: neg(d.total_miner_rewards),
    })),
  );
}

export function mempoolTxRow(t: TxRef, receiptTime: number, logId: number) {
  return {
    tx_id: t.tx_id,
    raw_tx: t.raw_tx,
    receipt_time: receiptTime,
    sender_address: t.sender_address,
    sponsor_address: t.sponsor_address,
    nonce: t.nonce,
    fee_rate: t.fee_rate,
    type_id: t.type_id,
    contract_id: t.contract_id,
    function_name: t.function_name,
    log_id: logId,
  };
}

/** Every principal a mempool tx names. A tx read back from the store for a reorg has no list:
 *  it is decoded again (rare), so a restored tx is indexed as it was when first announced. */
export function mempoolPrincipalsOf(t: TxRef): string[] {
  if (t.principals) return t.principals;
  try {
    return principalsOf(summarizeTx(t.raw_tx));
  } catch {
    return [t.sender_address, t.sponsor_address].filter(Boolean);
  }
}
