// A stored contract-call part rendered at answer time: with the called contract's ABI (function
// signature, argument names and ABI types) as the reference reads it then, or without (the v2
// address and block lists, and calls to a contract no deploy describes).
import type { ServingStore } from '../../serving/store.ts';
import type { CallPart } from '../../serving/docs.ts';
import { abiFunctionSignature, abiTypeString, findAbiFunction, toAbi, type ClarityAbi } from '../../workers/decode/index.ts';

interface RenderedFunction {
  signature: string;
  /** [name, ABI type string] per argument, where the ABI gives a type. */
  args: Array<[string, string] | undefined>;
}

const MAX_CONTRACTS = 10_000;
/** contract_id -> parsed ABI, and its functions as rendered; ABIs of deployed contracts do not change. */
const contracts = new Map<string, { abi: ClarityAbi | undefined; fns: Map<string, RenderedFunction | null> }>();

function functionOf(store: ServingStore, contractId: string, name: string): RenderedFunction | null {
  let c = contracts.get(contractId);
  if (!c) {
    const stored = store.abis.get(contractId);
    // A contract without an ABI may be deployed later: only found ABIs are remembered.
    if (!stored) return null;
    if (contracts.size >= MAX_CONTRACTS) contracts.delete(contracts.keys().next().value as string);
    contracts.set(contractId, (c = { abi: toAbi(stored.abi), fns: new Map() }));
  }
  let fn = c.fns.get(name);
  if (fn === undefined) {
    const f = findAbiFunction(c.abi, name);
    fn = f ? { signature: abiFunctionSignature(f), args: f.args.map((a) => (a.type ? [a.name || '', abiTypeString(a.type)] : undefined)) } : null;
    c.fns.set(name, fn);
  }
  return fn;
}

/** Forget parsed ABIs (a reorg may bring another deploy). */
export function clearServedAbis(): void {
  contracts.clear();
}

/** The `contract_call` object as JSON text. */
export function callJson(store: ServingStore, call: CallPart, opts: { withAbi: boolean; excludeFunctionArgs: boolean }): string {
  const fn = opts.withAbi ? functionOf(store, call.contract_id, call.function_name) : null;
  const out: Record<string, unknown> = { contract_id: call.contract_id, function_name: call.function_name, function_signature: fn ? fn.signature : '' };
  if (!opts.excludeFunctionArgs) {
    out.function_args = call.args.map(([hex, repr, type], i) => {
      const abiArg = fn?.args[i];
      return abiArg ? { hex, repr, name: abiArg[0], type: abiArg[1] } : { hex, repr, name: '', type };
    });
  }
  return JSON.stringify(out);
}
