// Bitcoin-originated ("synthetic") txs: the node reports them with raw_tx 0x00 and, since 2.1, a
// burnchain_op object. There are no tx bytes to decode, so the base fields are the reference's
// fixed ones (nonce 0, fee 0, allow mode, no post-conditions, anchor mode any) and the payload is
// taken from the op. Best effort: no recorded golden covers these.
import type { ApiTxBase, ApiTxMetadata } from '../../workers/decode/index.ts';
import type { DecodedParts } from './format.ts';
import type { TxRow } from './queries.ts';

interface OpAddress {
  address?: string;
}

const POX_FUNCTIONS: Record<string, string> = { stack_stx: 'stack-stx', delegate_stx: 'delegate-stx' };

export function syntheticTxFields(row: Pick<TxRow, 'tx_id' | 'burnchain_op' | 'sender_address' | 'contract_id'>): DecodedParts | undefined {
  let op: Record<string, Record<string, unknown>> | null = null;
  try {
    op = row.burnchain_op ? (JSON.parse(row.burnchain_op) as Record<string, Record<string, unknown>>) : null;
  } catch {
    op = null;
  }
  const [kind, body] = Object.entries(op ?? {})[0] ?? ['', {}];
  const sender = (body.sender as OpAddress | undefined)?.address ?? row.sender_address;
  const base: ApiTxBase = {
    tx_id: row.tx_id,
    nonce: 0,
    fee_rate: '0',
    sender_address: sender,
    sponsored: false,
    post_condition_mode: 'allow',
    post_conditions: [],
    anchor_mode: 'any',
  };
  let metadata: ApiTxMetadata | undefined;
  if (kind === 'transfer_stx') {
    metadata = {
      tx_type: 'token_transfer',
      token_transfer: {
        recipient_address: (body.recipient as OpAddress | undefined)?.address ?? '',
        amount: String(body.transfered_ustx ?? '0'),
        memo: typeof body.memo === 'string' && body.memo ? (body.memo.startsWith('0x') ? body.memo : `0x${body.memo}`) : '0x',
      },
    };
  } else if (POX_FUNCTIONS[kind]) {
    metadata = {
      tx_type: 'contract_call',
      contract_call: { contract_id: row.contract_id || '', function_name: POX_FUNCTIONS[kind], function_signature: '', function_args: [] },
    };
  }
  return metadata ? { base, metadata } : undefined;
}
