// What a transaction's intent operations ask for, as the reference reads them: a fee operation
// (negative amount), then one of — two token_transfer operations (the sender's negative amount,
// the recipient's positive one); a stack_stx operation (negative amount; metadata number_of_cycles,
// pox_addr, and for PoX-4 signer_key, with optional signer_signature, pox_max_amount, pox_auth_id);
// a delegate_stx operation (negative amount; metadata delegate_to, optional pox_addr); a
// revoke_delegate_stx operation (no amount, or 0). The result
// is the options object /construction/preprocess returns and /construction/metadata takes.
import { STX } from '../constants.ts';
import { rosettaError } from '../errors.ts';
import type { HttpError } from '../../errors.ts';

export interface IntentOperation {
  operation_identifier: { index: number };
  type: string;
  account?: { address: string };
  amount?: { value: string; currency: { symbol: string; decimals: number } };
  metadata?: Record<string, unknown>;
}

export interface ConstructionOptions {
  type?: 'token_transfer' | 'stack_stx' | 'delegate_stx' | 'revoke_delegate_stx';
  sender_address?: string;
  token_transfer_recipient_address?: string;
  amount?: string;
  symbol?: string;
  decimals?: number;
  fee?: string;
  max_fee?: string;
  size?: number;
  memo?: string;
  gas_limit?: number;
  gas_price?: number;
  suggested_fee_multiplier?: number;
  number_of_cycles?: number;
  pox_addr?: string;
  signer_key?: string;
  signer_signature?: string;
  pox_max_amount?: string;
  pox_auth_id?: string;
  reward_cycle_id?: number;
  delegate_to?: string;
  until_burn_height?: number;
  contract_address?: string;
  contract_name?: string;
  burn_block_height?: number;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined);
const uintString = (v: unknown): string | undefined => (typeof v === 'string' && /^\d+$/.test(v) ? v : typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? String(v) : undefined);

/** The options of intent operations, or the Rosetta error saying what is wrong with them. */
export function optionsOf(operations: readonly IntentOperation[]): ConstructionOptions | HttpError {
  if (operations.length === 0 || operations.length > 3) return rosettaError('invalidOperation', 'a transaction is a fee operation and one or two more');
  for (const op of operations) {
    if (!op.amount && op.type === 'revoke_delegate_stx') continue;
    if (!op.amount) return rosettaError('invalidOperation', `operation ${op.operation_identifier.index} (${op.type}) has no amount`);
    if (op.amount.currency.symbol !== STX.symbol) return rosettaError('invalidCurrencySymbol');
    if (op.amount.currency.decimals !== STX.decimals) return rosettaError('invalidCurrencyDecimals');
  }
  const o: ConstructionOptions = {};
  for (const op of operations) {
    const value = BigInt(op.amount?.value ?? '0');
    const meta = op.metadata ?? {};
    switch (op.type) {
      case 'fee':
        o.fee = op.amount!.value;
        break;
      case 'token_transfer':
        if (value < 0n) {
          o.sender_address = op.account?.address;
          o.type = 'token_transfer';
        } else {
          o.token_transfer_recipient_address = op.account?.address;
          o.amount = value.toString();
          o.symbol = op.amount!.currency.symbol;
          o.decimals = op.amount!.currency.decimals;
        }
        break;
      case 'stack_stx':
      case 'delegate_stx': {
        if (value > 0n) return rosettaError('invalidOperation', `a ${op.type} operation's amount is negative: the STX locked`);
        Object.assign(o, { type: op.type, sender_address: op.account?.address, amount: (-value).toString(), symbol: op.amount!.currency.symbol, decimals: op.amount!.currency.decimals });
        o.pox_addr = str(meta.pox_addr);
        if (op.type === 'stack_stx') {
          o.number_of_cycles = int(meta.number_of_cycles);
          if (o.number_of_cycles === undefined) return rosettaError('invalidOperation', 'stack_stx needs metadata.number_of_cycles');
          o.signer_key = str(meta.signer_key);
          o.signer_signature = str(meta.signer_signature);
          o.pox_max_amount = uintString(meta.pox_max_amount);
          o.pox_auth_id = uintString(meta.pox_auth_id);
          o.reward_cycle_id = int(meta.reward_cycle_id);
          if (meta.signer_private_key !== undefined) return rosettaError('invalidOperation', 'signer_private_key is not taken: sign the signer message yourself and pass signer_signature');
        } else {
          o.delegate_to = str(meta.delegate_to);
          if (!o.delegate_to) return rosettaError('invalidOperation', 'delegate_stx needs metadata.delegate_to');
          o.until_burn_height = int(meta.until_burn_height);
        }
        break;
      }
      case 'revoke_delegate_stx':
        if (value !== 0n) return rosettaError('invalidOperation', 'a revoke_delegate_stx operation moves no STX');
        Object.assign(o, { type: op.type, sender_address: op.account?.address, symbol: STX.symbol, decimals: STX.decimals });
        break;
      default:
        return rosettaError('invalidOperation', `operation type ${op.type} cannot be constructed (token_transfer, stack_stx, delegate_stx, revoke_delegate_stx and fee can)`);
    }
  }
  for (const k of Object.keys(o) as Array<keyof ConstructionOptions>) if (o[k] === undefined) delete o[k];
  if (!o.type) return rosettaError('invalidOperation', 'no token_transfer, stack_stx, delegate_stx or revoke_delegate_stx operation');
  return outOfRange(o) ?? o;
}

/** Values the transaction cannot hold: a u64 fee (here, a safe integer), a u64 transfer, u128 stacking amounts. */
export function outOfRange(o: ConstructionOptions): HttpError | undefined {
  const fee = o.fee === undefined ? 0n : BigInt(o.fee);
  if ((fee < 0n ? -fee : fee) > BigInt(Number.MAX_SAFE_INTEGER)) return rosettaError('invalidFee', 'a fee is at most 2^53 - 1 microSTX');
  const max = o.type === 'token_transfer' ? 2n ** 64n : 2n ** 128n;
  for (const v of [o.amount, o.pox_max_amount, o.pox_auth_id]) if (v !== undefined && BigInt(v) >= max) return rosettaError('invalidOperation', `${v} does not fit the transaction (below ${max})`);
  return undefined;
}
