// A stored contract-call part rendered at answer time: with the called contract's ABI (function
// signature, argument names and ABI types) as the reference reads it then, or without (the v2
// address and block lists, and calls to a contract no deploy describes).
import type { ServingStore } from '../../serving/store.ts';
import type { CallPart } from '../../serving/docs.ts';
import { abiFunctionSignature, abiTypeString, findAbiFunction, toAbi, type ClarityAbi } from '../../workers/decode/index.ts';

interface RenderedFunction {
  /** `"function_signature":...` as JSON text. */
  signatureJson: string;
  /** `"name":...,"type":...` as JSON text per argument, where the ABI gives a type. */
  argsJson: Array<string | undefined>;
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
    fn = f
      ? {
          signatureJson: `"function_signature":${JSON.stringify(abiFunctionSignature(f))}`,
          argsJson: f.args.map((a) => (a.type ? `"name":${JSON.stringify(a.name || '')},"type":${JSON.stringify(abiTypeString(a.type))}` : undefined)),
        }
      : null;
    c.fns.set(name, fn);
  }
  return fn;
}

/** Forget parsed ABIs (a reorg may bring another deploy). */
export function clearServedAbis(): void {
  contracts.clear();
}

/** Text that JSON.stringify would escape: controls, quotes, backslashes, lone surrogates. */
const ESCAPED = /[\0-\x1f"\\\ud800-\udfff]/;
/** A string as JSON: most ids, names, types and reprs need no escaping, and a test is cheaper than
 *  JSON.stringify's call (a list page renders ~12 calls of ~3 arguments each). */
const jsonString = (s: string): string => (ESCAPED.test(s) ? JSON.stringify(s) : `"${s}"`);

/** The `contract_call` object as JSON text. Built as text: list pages render 50 of them, and the
 *  ABI's parts are JSON already (cached per function). Hex needs no escaping. */
export function callJson(store: ServingStore, call: CallPart, opts: { withAbi: boolean; excludeFunctionArgs: boolean }): string {
  const fn = opts.withAbi ? functionOf(store, call.contract_id, call.function_name) : null;
  let out = `{"contract_id":${jsonString(call.contract_id)},"function_name":${jsonString(call.function_name)},${fn ? fn.signatureJson : '"function_signature":""'}`;
  if (!opts.excludeFunctionArgs) {
    let args = '';
    for (let i = 0; i < call.args.length; i++) {
      const [hex, repr, type] = call.args[i];
      const named = fn?.argsJson[i];
      args += `${i > 0 ? ',' : ''}{"hex":"${hex}","repr":${jsonString(repr)},${named ?? `"name":"","type":${jsonString(type)}`}}`;
    }
    out += `,"function_args":[${args}]`;
  }
  return `${out}}`;
}
