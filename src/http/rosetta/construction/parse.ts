// A transaction's operations as the construction flow describes them (/construction/parse): the
// operations of its intent, without statuses. A token transfer is the fee and both sides of the
// transfer (as the data endpoints show it); a stacking call is the fee and one stack_stx /
// delegate_stx operation with the STX it locks as a negative amount and its arguments as metadata
// (a revoke_delegate_stx one with neither), the shape /construction/preprocess takes.
import { decodeClarityValue, type DecodedTransaction } from '../../../stacks/codec/index.ts';
import { STX } from '../constants.ts';
import { opTxOf, txOperations, type Operation } from '../operations.ts';
import { poxTupleToBtc, stackingOperationType } from '../stacking.ts';

const uintOf = (hex: string | undefined): bigint | undefined => {
  if (!hex) return undefined;
  try {
    const cv = decodeClarityValue(hex);
    const inner = cv.type === 'some' ? cv.value : cv;
    return inner.type === 'uint' ? inner.value : undefined;
  } catch {
    return undefined;
  }
};

const bufferHexOf = (hex: string | undefined): string | undefined => {
  if (!hex) return undefined;
  try {
    const cv = decodeClarityValue(hex);
    const inner = cv.type === 'some' ? cv.value : cv;
    return inner.type === 'buffer' ? `0x${Buffer.from(inner.value).toString('hex')}` : undefined;
  } catch {
    return undefined;
  }
};

const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** The intent operations of a decoded tx, and its memo (a token transfer's). */
export function parsedOperations(tx: DecodedTransaction, mainnet: boolean): Operation[] {
  const op = opTxOf(tx, '');
  const ops = txOperations(op, { mainnet }).map(({ status: _status, ...rest }) => rest as Operation);
  const kind = op.call ? stackingOperationType(op.call) : undefined;
  if (!kind || tx.payload.type !== 'contract_call') return ops;
  if (kind === 'revoke_delegate_stx') return ops.map((o) => (o.type === kind ? { operation_identifier: o.operation_identifier, type: kind, account: o.account } : o));
  const args = tx.payload.functionArgs;
  const amount = uintOf(args[0]) ?? 0n;
  const metadata =
    kind === 'stack_stx'
      ? defined({
          number_of_cycles: uintOf(args[3]) === undefined ? undefined : Number(uintOf(args[3])),
          pox_addr: poxTupleToBtc(args[1] ? decodeClarityValue(args[1]) : undefined, mainnet),
          burn_block_height: uintOf(args[2]) === undefined ? undefined : Number(uintOf(args[2])),
          signer_signature: bufferHexOf(args[4]),
          signer_key: bufferHexOf(args[5]),
          pox_max_amount: uintOf(args[6])?.toString(),
          pox_auth_id: uintOf(args[7])?.toString(),
        })
      : defined({
          delegate_to: op.call?.function_args?.[1]?.repr.replace(/^'/, ''),
          until_burn_height: uintOf(args[2]) === undefined ? undefined : Number(uintOf(args[2])),
          pox_addr: args[3] ? poxTupleToBtc(unwrapSome(args[3]), mainnet) : undefined,
        });
  return ops.map((o) =>
    o.type === 'contract_call' || o.type === kind
      ? { operation_identifier: o.operation_identifier, type: kind, account: o.account, amount: { value: (-amount).toString(), currency: { decimals: STX.decimals, symbol: STX.symbol } }, metadata }
      : o,
  );
}

function unwrapSome(hex: string) {
  try {
    const cv = decodeClarityValue(hex);
    return cv.type === 'some' ? cv.value : undefined;
  } catch {
    return undefined;
  }
}
