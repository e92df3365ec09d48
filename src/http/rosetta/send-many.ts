// Memos of a send-many-memo call, which the reference shows on the call's STX transfer operations
// (rosetta-helpers decodeSendManyContractCallMemos): for a call of `send-many` (a list of
// {to, ustx, memo} tuples) or `send-stx-with-memo` (its third argument) on the network's
// send-many-memo contract, one memo per transfer in argument order, the buffer's bytes as UTF-8
// text ('' for a memo that is not a buffer).
import { decodeClarityValue, tupleGet, type ClarityValue } from '../../stacks/codec/index.ts';

/** The reference's default contract ids (its .env: MAINNET_ / TESTNET_SEND_MANY_CONTRACT_ID). */
const CONTRACT = {
  mainnet: 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE.send-many-memo',
  testnet: 'ST3F1X4QGV2SM8XD96X45M6RTQXKA1PZJZZCQAB4B.send-many-memo',
};

export interface SendManyCall {
  contract_id: string;
  function_name: string;
  function_args?: Array<{ hex: string }>;
}

const memoText = (memo: ClarityValue | undefined): string => (memo?.type === 'buffer' ? Buffer.from(memo.value).toString('utf8') : '');

/** The memos of the call's transfers, or undefined when it is no send-many-memo call (or its arguments do not decode). */
export function sendManyMemos(call: SendManyCall | undefined, mainnet: boolean): string[] | undefined {
  if (!call?.function_args || call.contract_id !== CONTRACT[mainnet ? 'mainnet' : 'testnet']) return undefined;
  try {
    if (call.function_name === 'send-many') {
      const list = decodeClarityValue(call.function_args[0].hex);
      return list.type === 'list' ? list.items.map((item) => memoText(tupleGet(item, 'memo'))) : undefined;
    }
    if (call.function_name === 'send-stx-with-memo') return [memoText(decodeClarityValue(call.function_args[2].hex))];
  } catch {
    // As the reference: arguments that do not decode give no memos.
  }
  return undefined;
}
