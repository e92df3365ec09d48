// A transaction as Rosetta operations, in the reference's order: the fee, then what the payload
// does (transfer out and in, contract call or deploy, coinbase with the block's matured miner
// rewards and PoX unlocks, ...), then one or two operations per STX event (transfer, mint, burn,
// lock). As there, the fee operation names the origin, also of a sponsored tx (the block's
// correcting transaction charges the sponsor, see corrections.ts), and the transfers of a
// send-many-memo call carry their memo argument. Fungible-token operations need token metadata the
// reference only fetched when configured to (off by default), so, as there, FT events have none;
// NFT and print events have none either.
import { formatTxMetadata, type DecodedTransaction } from '../../stacks/codec/index.ts';
import { STX, type OperationType } from './constants.ts';
import { stackingMetadata } from './stacking.ts';
import { sendManyMemos } from './send-many.ts';

export interface Operation {
  operation_identifier: { index: number };
  related_operations?: Array<{ index: number }>;
  type: OperationType;
  status?: string;
  account?: { address: string };
  amount?: { value: string; currency: { decimals: number; symbol: string } };
  coin_change?: { coin_action: 'coin_created' | 'coin_spent'; coin_identifier: { identifier: string } };
  metadata?: Record<string, unknown>;
}

/** What operations are built from: the decoded tx with its outcome. */
export interface OpTx {
  tx_id: string;
  /** success | abort_by_response | abort_by_post_condition; '' for a mempool tx (as the reference shows it). */
  status: string;
  type: 'token_transfer' | 'contract_call' | 'smart_contract' | 'coinbase' | 'poison_microblock' | 'tenure_change';
  /** The origin. */
  sender: string;
  /** Who pays the fee: the sponsor of a sponsored tx, else the origin. */
  feePayer: string;
  fee: bigint;
  transfer?: { recipient: string; amount: bigint; /** 34-byte memo, hex */ memo?: string };
  /** Contract call metadata as the reference renders it without an ABI. */
  call?: { contract_id: string; function_name: string; function_signature: string; function_args?: Array<{ hex: string; repr: string; name: string; type: string }> };
  tenure?: Record<string, unknown>;
  /** The call's result (raw_result), for stacking calls' metadata; absent while pending. */
  result?: string;
}

/** An STX event of the tx (stx_events / stx_lock_events rows). */
export type StxEvent =
  | { kind: 'transfer' | 'mint' | 'burn'; event_index: number; sender: string; recipient: string; amount: bigint; memo: string }
  | { kind: 'lock'; event_index: number; locked_address: string; locked_amount: bigint; unlock_height: bigint };

export interface MinerReward {
  recipient: string;
  /** coinbase + anchored fees + streamed fees (confirmed and produced). */
  amount: bigint;
}

export interface Unlock {
  stacker: string;
  amount: bigint;
  /** The block's coinbase tx, named in the operation's metadata. */
  tx_id: string;
  /** The lock was superseded by a later operation: no STX come back (see unlocks.ts). */
  superseded?: boolean;
}

export interface BlockExtras {
  minerRewards?: readonly MinerReward[];
  unlocks?: readonly Unlock[];
  events?: readonly StxEvent[];
  mainnet: boolean;
}

/** OpTx of a decoded tx; `abi` (the called contract's, JSON) names a call's arguments and signature. */
export function opTxOf(tx: DecodedTransaction, status: string, opts: { result?: string; abi?: string } = {}): OpTx {
  const { result } = opts;
  const p = tx.payload;
  const base = { tx_id: tx.txId, status, sender: tx.senderAddress, feePayer: tx.sponsorAddress ?? tx.senderAddress, fee: tx.fee, result };
  switch (p.type) {
    case 'token_transfer':
      return { ...base, type: 'token_transfer', transfer: { recipient: p.recipient, amount: p.amount, memo: p.memo } };
    case 'contract_call': {
      const meta = formatTxMetadata(tx, { abi: opts.abi });
      return { ...base, type: 'contract_call', call: meta.tx_type === 'contract_call' ? meta.contract_call : undefined };
    }
    case 'smart_contract':
    case 'versioned_smart_contract':
      return { ...base, type: 'smart_contract' };
    case 'coinbase':
    case 'coinbase_to_alt_recipient':
    case 'nakamoto_coinbase':
      return { ...base, type: 'coinbase' };
    case 'poison_microblock':
      return { ...base, type: 'poison_microblock' };
    case 'tenure_change': {
      const meta = formatTxMetadata(tx);
      return { ...base, type: 'tenure_change', tenure: meta.tx_type === 'tenure_change' ? meta.tenure_change_payload : undefined };
    }
  }
}

const stx = (value: bigint) => ({ value: value.toString(), currency: { decimals: STX.decimals, symbol: STX.symbol } });

/**
 * A memo as text: trailing zero bytes cut, UTF-8; null when nothing is left (the reference's
 * parseTransactionMemo). undefined: there is no memo at all.
 */
export function memoText(hex: string | undefined): string | null | undefined {
  if (!hex || hex === '0x') return undefined;
  let b = Buffer.from(hex.replace(/^0x/, ''), 'hex');
  let end = b.length;
  while (end > 0 && b[end - 1] === 0) end--;
  b = b.subarray(0, end);
  return b.length ? b.toString('utf8') : null;
}

/** An STX transfer's memo as its operations' metadata (none without a memo). */
const memoMetadata = (hex: string | undefined) => {
  const memo = memoText(hex);
  return memo === undefined ? undefined : { memo };
};

class OpList {
  readonly ops: Operation[] = [];

  constructor(private readonly tx: OpTx) {}

  get next(): number {
    return this.ops.length;
  }

  push(op: Omit<Operation, 'operation_identifier'>): Operation {
    const full = { operation_identifier: { index: this.ops.length }, ...op } as Operation;
    this.ops.push(full);
    return full;
  }

  /** The two sides of an STX transfer: spent by `from`, created at `to`, the second naming the first. */
  transfer(from: string, to: string, amount: bigint, metadata: Record<string, unknown> | undefined): void {
    const spent = this.next;
    this.push({
      type: 'token_transfer',
      status: this.tx.status,
      account: { address: from },
      amount: stx(-amount),
      coin_change: { coin_action: 'coin_spent', coin_identifier: { identifier: `${this.tx.tx_id}:${spent}` } },
      ...(metadata ? { metadata } : {}),
    });
    this.push({
      related_operations: [{ index: spent }],
      type: 'token_transfer',
      status: this.tx.status,
      account: { address: to },
      amount: stx(amount),
      coin_change: { coin_action: 'coin_created', coin_identifier: { identifier: `${this.tx.tx_id}:${spent + 1}` } },
      ...(metadata ? { metadata } : {}),
    });
  }
}

/** The operations of one tx. */
export function txOperations(tx: OpTx, extras: BlockExtras): Operation[] {
  const list = new OpList(tx);
  const fee = () => list.push({ type: 'fee', status: tx.status, account: { address: tx.sender }, amount: stx(-tx.fee) });
  switch (tx.type) {
    case 'token_transfer':
      fee();
      if (tx.transfer) list.transfer(tx.sender, tx.transfer.recipient, tx.transfer.amount, memoMetadata(tx.transfer.memo));
      break;
    case 'contract_call':
      fee();
      list.push(contractCallOperation(tx, extras.mainnet));
      break;
    case 'smart_contract':
      fee();
      list.push({ type: 'smart_contract', status: tx.status, account: { address: tx.sender } });
      break;
    case 'coinbase':
      list.push({ type: 'coinbase', status: tx.status, account: { address: tx.sender } });
      for (const r of extras.minerRewards ?? []) list.push({ status: 'success', type: 'miner_reward', account: { address: r.recipient }, amount: stx(r.amount) });
      for (const u of extras.unlocks ?? []) list.push({ type: 'stx_unlock', status: 'success', account: { address: u.stacker }, amount: stx(u.amount), metadata: { tx_id: u.tx_id } });
      break;
    case 'poison_microblock':
      list.push({ type: 'poison_microblock', status: tx.status, account: { address: tx.sender } });
      break;
    case 'tenure_change':
      list.push({ type: 'tenure_change', status: tx.status, metadata: tx.tenure });
      break;
  }
  const memos = sendManyMemos(tx.call, extras.mainnet);
  let transfers = 0;
  for (const e of extras.events ?? []) {
    switch (e.kind) {
      case 'transfer':
        // A token-transfer tx's own transfer event is the payload's transfer, already shown.
        if (tx.type !== 'token_transfer') list.transfer(e.sender, e.recipient, e.amount, memos ? { memo: memos[transfers++] } : memoMetadata(e.memo));
        break;
      case 'mint':
        list.push({ type: 'mint', status: tx.status, account: { address: e.recipient }, amount: stx(e.amount) });
        break;
      case 'burn':
        list.push({ type: 'burn', status: tx.status, account: { address: e.sender }, amount: stx(-e.amount) });
        break;
      case 'lock':
        list.push({
          type: 'stx_lock',
          status: tx.status,
          account: { address: e.locked_address },
          amount: stx(-e.locked_amount),
          metadata: { locked: e.locked_amount.toString(), unlock_height: e.unlock_height.toString() },
        });
        break;
    }
  }
  return list.ops;
}

function contractCallOperation(tx: OpTx, mainnet: boolean): Omit<Operation, 'operation_identifier'> {
  const op = { type: 'contract_call' as OperationType, status: tx.status, account: { address: tx.sender } };
  const stacking = tx.call ? stackingMetadata(tx.call, tx.result, mainnet) : undefined;
  if (stacking) return { ...op, type: stacking.type, metadata: stacking.metadata };
  return { ...op, metadata: tx.call };
}
