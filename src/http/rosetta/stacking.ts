// Stacking calls (stack-stx, delegate-stx, revoke-delegate-stx on a PoX boot contract) are shown as
// their own operation types, with metadata read from the call's arguments and result as the
// reference reads them: amounts and heights as digit strings, the PoX address as a Bitcoin address
// (stack-stx) or the tuple's hex (delegate-stx).
import { decodeClarityValue, tupleGet, type ClarityValue } from '../../stacks/codec/index.ts';
import type { OperationType } from './constants.ts';
import { poxAddressToBtc } from '../../stacks/encode/btc-address.ts';

const BOOT_ADDRESSES = new Set(['SP000000000000000000002Q6VF78', 'ST000000000000000000002AMW42H']);
const POX_CONTRACTS = new Set(['pox', 'pox-2', 'pox-3', 'pox-4']);
const STACKING_FUNCTIONS: Record<string, OperationType> = {
  'stack-stx': 'stack_stx',
  'delegate-stx': 'delegate_stx',
  'revoke-delegate-stx': 'revoke_delegate_stx',
};

interface CallArg {
  hex: string;
  repr: string;
}

export interface StackingCall {
  contract_id: string;
  function_name: string;
  function_args?: CallArg[];
}

/** The operation type of a stacking call on a PoX contract, else undefined. */
export function stackingOperationType(call: StackingCall): OperationType | undefined {
  const [address, name] = call.contract_id.split('.');
  if (!BOOT_ADDRESSES.has(address) || !POX_CONTRACTS.has(name)) return undefined;
  return STACKING_FUNCTIONS[call.function_name];
}

const digits = (repr: string | undefined): string | undefined => (repr === undefined ? undefined : repr.replace(/[^\d.-]/g, ''));

function decode(hex: string | undefined): ClarityValue | undefined {
  if (!hex) return undefined;
  try {
    return decodeClarityValue(hex);
  } catch {
    return undefined;
  }
}

/** A PoX address tuple value as a Bitcoin address ('Invalid' when it is not one). */
export function poxTupleToBtc(cv: ClarityValue | undefined, mainnet: boolean): string | undefined {
  if (cv?.type !== 'tuple') return undefined;
  const version = tupleGet(cv, 'version');
  const hashbytes = tupleGet(cv, 'hashbytes');
  if (version?.type !== 'buffer' || hashbytes?.type !== 'buffer' || version.value.length !== 1) return 'Invalid';
  return poxAddressToBtc({ version: version.value[0], hashbytes: hashbytes.value }, mainnet ? 'mainnet' : 'testnet') ?? 'Invalid';
}

/** 'true' when the call returned (ok true) (or (some true)). */
function succeeded(result: string | undefined): string {
  const cv = decode(result);
  return (cv?.type === 'ok' || cv?.type === 'some') && cv.value.type === 'bool' && cv.value.value ? 'true' : 'false';
}

/** Fields of a `{k: v}` object with the undefined ones left out (as JSON would). */
const defined = (o: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => e[1] !== undefined));

/**
 * Type and metadata of a stacking call's operation, from its arguments and (once mined) its result;
 * undefined for any other call.
 */
export function stackingMetadata(call: StackingCall, result: string | undefined, mainnet: boolean): { type: OperationType; metadata: Record<string, string> } | undefined {
  const type = stackingOperationType(call);
  if (!type) return undefined;
  const args = call.function_args ?? [];
  switch (type) {
    case 'stack_stx': {
      // (stack-stx amount-ustx pox-addr start-burn-ht lock-period ...)
      const ok = decode(result);
      const tuple = ok?.type === 'ok' ? ok.value : undefined;
      const unlock = tupleGet(tuple, 'unlock-burn-height');
      const stacker = tupleGet(tuple, 'stacker');
      return {
        type,
        metadata: defined({
          lock_period: digits(args[3]?.repr),
          amount_ustx: digits(args[0]?.repr),
          start_burn_height: digits(args[2]?.repr),
          unlock_burn_height: unlock?.type === 'uint' ? unlock.value.toString() : undefined,
          stacker_address: stacker?.type === 'principal_standard' || stacker?.type === 'principal_contract' ? stacker.value : undefined,
          pox_addr: poxTupleToBtc(decode(args[1]?.hex), mainnet),
        }),
      };
    }
    case 'delegate_stx': {
      // (delegate-stx amount-ustx delegate-to until-burn-ht pox-addr)
      const until = args[2]?.repr;
      const poxAddr = decode(args[3]?.hex);
      return {
        type,
        metadata: defined({
          amount_ustx: digits(args[0]?.repr),
          delegate_to: args[1]?.repr.replace(/^'/, ''),
          until_burn_height: until === undefined ? undefined : until === 'none' ? 'none' : digits(until),
          pox_addr: poxAddr?.type === 'some' ? `0x${args[3].hex.slice(4)}` : 'none',
          ...(result === undefined ? {} : { result: succeeded(result) }),
        }),
      };
    }
    default:
      return { type, metadata: result === undefined ? {} : { result: succeeded(result) } };
  }
}
