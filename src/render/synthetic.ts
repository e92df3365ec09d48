// Bitcoin-originated ("synthetic") txs: the node reports them with raw_tx 0x00, so there are no
// bytes to decode. The reference builds a stand-in tx from the tx's events: an STX transfer event
// makes a token transfer, an STX lock event a `stack-stx` call on the PoX contract; origin nonce
// and fee 0, post-condition mode allow, anchor mode any. Best effort (no recorded golden covers
// these): the reference's synthesized stack-stx arguments (a PoX address tuple rebuilt from the
// Bitcoin address) are not reproduced, the call is shown without function_args.
import type { ApiTxBase, ApiTxMetadata } from '../stacks/codec/index.ts';
import type { DecodedParts } from './tx.ts';
import type { EventRow, TxRow } from './rows.ts';

const BOOT_ADDRESS = { mainnet: 'SP000000000000000000002Q6VF78', testnet: 'ST000000000000000000002AMW42H' };

function base(txId: string, sender: string): ApiTxBase {
  return { tx_id: txId, nonce: 0, fee_rate: '0', sender_address: sender, sponsored: false, post_condition_mode: 'allow', post_conditions: [], anchor_mode: 'any' };
}

/** Stand-in fields of a raw_tx 0x00 tx from its events (or, lacking those, its burnchain_op). */
export function syntheticTxFields(row: Pick<TxRow, 'tx_id' | 'burnchain_op' | 'sender_address'>, events: readonly EventRow[] = []): DecodedParts | undefined {
  const transfer = events.find((e) => e.kind === 'stx_asset' && e.a === 'transfer');
  if (transfer) {
    return {
      base: base(row.tx_id, transfer.b),
      metadata: { tx_type: 'token_transfer', token_transfer: { recipient_address: transfer.c, amount: transfer.d, memo: '0x' } },
    };
  }
  const lock = events.find((e) => e.kind === 'stx_lock');
  if (lock) {
    const boot = lock.c.startsWith('SP') || lock.c.startsWith('SM') ? BOOT_ADDRESS.mainnet : BOOT_ADDRESS.testnet;
    const metadata: ApiTxMetadata = {
      tx_type: 'contract_call',
      contract_call: { contract_id: `${boot}.${lock.d || 'pox'}`, function_name: 'stack-stx', function_signature: '' },
    };
    return { base: base(row.tx_id, lock.c), metadata };
  }
  return fromBurnchainOp(row);
}

interface OpAddress {
  address?: string;
}

/** 2.1+ payloads also carry the op itself: a transfer can be shown from it. */
function fromBurnchainOp(row: Pick<TxRow, 'tx_id' | 'burnchain_op' | 'sender_address'>): DecodedParts | undefined {
  let op: Record<string, Record<string, unknown>> | null = null;
  try {
    op = row.burnchain_op ? (JSON.parse(row.burnchain_op) as Record<string, Record<string, unknown>>) : null;
  } catch {
    op = null;
  }
  const body = op?.transfer_stx;
  if (!body) return undefined;
  return {
    base: base(row.tx_id, (body.sender as OpAddress | undefined)?.address ?? row.sender_address),
    metadata: {
      tx_type: 'token_transfer',
      token_transfer: { recipient_address: (body.recipient as OpAddress | undefined)?.address ?? '', amount: String(body.transfered_ustx ?? '0'), memo: '0x' },
    },
  };
}
