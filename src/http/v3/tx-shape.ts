// v3 transaction shapes, made from the v1 tx objects the tx family renders: the summary every v3
// list shows, and the full transaction of /extended/v3/transactions/:tx_id (heavy fields only on
// request). The v1 object lacks the block's and the parent's index hashes: the caller passes them.
import { memoText } from '../rosetta/operations.ts';
import type { TxKey } from './cursor.ts';

/** The fields of a v1 tx object (mined or mempool) that v3 shapes read. */
export interface V1Tx extends TxKey {
  tx_id: string;
  nonce: number;
  fee_rate: string;
  sender_address: string;
  sponsored: boolean;
  sponsor_address?: string;
  sponsor_nonce?: number;
  block_hash: string;
  block_time: number;
  burn_block_height: number;
  burn_block_time: number;
  tx_status: string;
  tx_type: string;
  canonical?: boolean;
  is_unanchored?: boolean;
  parent_block_hash: string;
  event_count: number;
  execution_cost_read_count: number;
  execution_cost_read_length: number;
  execution_cost_runtime: number;
  execution_cost_write_count: number;
  execution_cost_write_length: number;
  vm_error: string | null;
  tx_result?: { hex: string; repr: string };
  post_conditions: unknown[];
  token_transfer?: { recipient_address: string; amount: string; memo: string };
  smart_contract?: { clarity_version: number | null; contract_id: string; source_code: string };
  contract_call?: { contract_id: string; function_name: string; function_args?: Array<{ hex: string; repr: string }> };
  coinbase_payload?: { data: string; alt_recipient: string | null; vrf_proof?: string | null };
  tenure_change_payload?: Record<string, unknown> & { cause: string };
}

/** The fields of a mined tx a v3 summary shows (served.ts reads only these from a document). */
export type SummaryTx = Pick<
  V1Tx,
  | 'tx_id' | 'nonce' | 'fee_rate' | 'sender_address' | 'sponsored' | 'sponsor_address' | 'sponsor_nonce'
  | 'block_hash' | 'block_height' | 'block_time' | 'burn_block_height' | 'burn_block_time' | 'parent_block_hash' | 'is_unanchored'
  | 'microblock_sequence' | 'tx_index' | 'tx_status' | 'tx_type'
  | 'token_transfer' | 'smart_contract' | 'contract_call' | 'coinbase_payload' | 'tenure_change_payload'
> & {
  /** Its block's index hash, when read with the tx (a stored canonical placement). */
  index_block_hash?: string;
};

/** What v1 objects do not carry: the index hashes of the tx's block and its parent ('0x' for a
 *  streamed microblock, which has no block yet), and the block time the reference records (a boot
 *  receipt shown in block 1 keeps the boot block's time and parent). */
export interface BlockIndexHashes {
  index_hash: string;
  parent: { hash: string; index_hash: string };
  time: number;
}

export const TX_INCLUDE_FIELDS = ['function_args', 'source_code', 'post_conditions', 'result'] as const;
export type TxInclude = (typeof TX_INCLUDE_FIELDS)[number];

/** An STX transfer memo as the reference shows it: its hex and its text (trailing zero bytes cut). */
export const memoOf = (hex: string) => ({ hex, repr: memoText(hex) ?? '' });

/** The fields of a tx object its type payload reads (mined and mempool objects have them alike). */
export type TypedTx = Pick<V1Tx, 'tx_type' | 'token_transfer' | 'smart_contract' | 'contract_call' | 'coinbase_payload' | 'tenure_change_payload'>;

/**
 * `type` and the payload of the tx's type; `full`: the heavy fields `include` asks for too. A
 * mempool tx shows only its type for a coinbase, tenure change or poison microblock.
 */
export function typePayload(tx: TypedTx, full: boolean, include: readonly TxInclude[], mempool = false): Record<string, unknown> {
  if (mempool && !['token_transfer', 'smart_contract', 'contract_call'].includes(tx.tx_type)) return { type: tx.tx_type };
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
    case 'coinbase': {
      const c = tx.coinbase_payload!;
      const extra = full ? { payload: c.data, vrf_proof: c.vrf_proof ?? null } : {};
      return { type: 'coinbase', coinbase: { alt_recipient: c.alt_recipient ?? null, ...extra } };
    }
    case 'tenure_change': {
      const t = tx.tenure_change_payload!;
      if (!full) return { type: 'tenure_change', tenure_change: { cause: t.cause } };
      const { cause, tenure_consensus_hash, prev_tenure_consensus_hash, burn_view_consensus_hash, previous_tenure_end, previous_tenure_blocks, pubkey_hash } = t;
      return { type: 'tenure_change', tenure_change: { cause, tenure_consensus_hash, prev_tenure_consensus_hash, burn_view_consensus_hash, previous_tenure_end, previous_tenure_blocks, pubkey_hash } };
    }
    default:
      return { type: tx.tx_type };
  }
}

/** Who sent a tx and who sponsored it (sponsor null for a tx paying its own fee). */
export function senderFields(tx: Pick<V1Tx, 'tx_id' | 'sender_address' | 'nonce' | 'sponsored' | 'sponsor_address' | 'sponsor_nonce' | 'fee_rate'>) {
  return {
    tx_id: tx.tx_id,
    sender: { address: tx.sender_address, nonce: tx.nonce },
    sponsor: tx.sponsored && tx.sponsor_address ? { address: tx.sponsor_address, nonce: tx.sponsor_nonce ?? 0 } : null,
    fee_rate: tx.fee_rate,
  };
}

// Flat literals, not spreads of senderFields: V8 copies spread members one by one through its
// generic path, and a page builds 50 of these.
function summaryBase(tx: SummaryTx, ids: BlockIndexHashes) {
  return {
    tx_id: tx.tx_id,
    sender: { address: tx.sender_address, nonce: tx.nonce },
    sponsor: tx.sponsored && tx.sponsor_address ? { address: tx.sponsor_address, nonce: tx.sponsor_nonce ?? 0 } : null,
    fee_rate: tx.fee_rate,
    block: { height: tx.block_height, hash: tx.block_hash, index_hash: ids.index_hash, time: ids.time, tx_index: tx.tx_index },
    bitcoin_block: { height: tx.burn_block_height, time: tx.burn_block_time },
    status: tx.tx_status,
  };
}

/** The summary of a mined tx, as every v3 tx list shows it. */
export function txSummary(tx: SummaryTx, ids: BlockIndexHashes): Record<string, unknown> {
  return Object.assign(summaryBase(tx, ids), typePayload(tx, false, []));
}

/** A mined tx in full, with the heavy fields `include` asks for. */
export function fullTx(tx: V1Tx, ids: BlockIndexHashes, include: readonly TxInclude[]): Record<string, unknown> {
  return {
    ...summaryBase(tx, ids),
    parent_block: ids.parent,
    event_count: tx.event_count,
    execution_cost: {
      read_count: tx.execution_cost_read_count,
      read_length: tx.execution_cost_read_length,
      runtime: tx.execution_cost_runtime,
      write_count: tx.execution_cost_write_count,
      write_length: tx.execution_cost_write_length,
    },
    vm_error: tx.vm_error,
    ...(include.includes('post_conditions') ? { post_conditions: tx.post_conditions } : {}),
    ...(include.includes('result') && tx.tx_result ? { result: { hex: tx.tx_result.hex, repr: tx.tx_result.repr } } : {}),
    ...typePayload(tx, true, include),
  };
}

/** A tx's place in the v3 order. */
export const txKeyOf = (tx: TxKey): TxKey => ({ block_height: tx.block_height, microblock_sequence: tx.microblock_sequence, tx_index: tx.tx_index });
