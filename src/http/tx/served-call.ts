// A stored contract-call part rendered at answer time: with the called contract's ABI (function
// signature, argument names and ABI types) as the reference reads it then, or without (the v2
// address and block lists, and calls to a contract no deploy describes).
import type { ServingStore } from '../../serving/store.ts';
import type { CallPart } from '../../serving/docs.ts';
import { unpack } from '../../serving/codec.ts';
import { MsgpackReader } from '../../serving/tx-doc-list.ts';
import type { JsonBytesWriter } from '../../server/json-bytes.ts';
import { abiFunctionSignature, abiTypeString, findAbiFunction, toAbi, type ClarityAbi } from '../../stacks/codec/index.ts';

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
  return renderCall(call, opts.withAbi ? functionOf(store, call.contract_id, call.function_name) : null, opts.excludeFunctionArgs);
}

function renderCall(call: CallPart, fn: RenderedFunction | null, excludeFunctionArgs: boolean): string {
  let out = `{"contract_id":${jsonString(call.contract_id)},"function_name":${jsonString(call.function_name)},${fn ? fn.signatureJson : '"function_signature":""'}`;
  if (!excludeFunctionArgs) {
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

const utf8 = new TextEncoder();
const KEY = { contract_id: utf8.encode('contract_id'), function_name: utf8.encode('function_name'), args: utf8.encode('args') };
/** The call's constant text, as bytes. */
const PART = {
  open: utf8.encode('{"contract_id":'),
  fn: utf8.encode(',"function_name":'),
  bare: utf8.encode(',"function_signature":""}'),
  withArgs: utf8.encode(',"function_signature":"","function_args":['),
  firstArg: utf8.encode('{"hex":"'),
  nextArg: utf8.encode('},{"hex":"'),
  repr: utf8.encode('","repr":'),
  type: utf8.encode(',"name":"","type":'),
  argsEnd: utf8.encode('}]}'),
  noArgsEnd: utf8.encode(']}'),
};

function keyIs(b: Uint8Array, [start, end]: [number, number], key: Uint8Array): boolean {
  if (end - start !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (b[start + i] !== key[i]) return false;
  return true;
}

/**
 * callJson without the ABI, written from the stored call's MessagePack bytes as they are (its strings
 * are never decoded: a v2 list page unpacked and re-quoted ~12 calls). Falls back to callJson for a
 * string JSON.stringify would escape as a lone surrogate.
 */
export function writeCallWithoutAbi(w: JsonBytesWriter, b: Uint8Array, start: number, end: number, excludeFunctionArgs: boolean): void {
  const r = new MsgpackReader(b, end);
  r.pos = start;
  let contract: [number, number] | undefined;
  let fn: [number, number] | undefined;
  let args = -1;
  for (let n = r.mapLength(); n > 0; n--) {
    const key = r.strRange();
    if (keyIs(b, key, KEY.contract_id)) contract = r.strRange();
    else if (keyIs(b, key, KEY.function_name)) fn = r.strRange();
    else if (keyIs(b, key, KEY.args)) {
      args = r.pos;
      // The last member (as the workers pack it) need not be stepped over.
      if (n > 1) r.skip();
    } else r.skip();
  }
  if (!contract || !fn || args < 0) throw new TypeError('a stored contract call lacks a member');
  const mark = w.length;
  w.bytes(PART.open);
  let ok = w.jsonString(b, contract[0], contract[1]);
  ok &&= !!w.bytes(PART.fn) && w.jsonString(b, fn[0], fn[1]);
  if (ok && excludeFunctionArgs) {
    w.bytes(PART.bare);
    return;
  }
  if (ok) {
    w.bytes(PART.withArgs);
    r.pos = args;
    const n = r.arrayLength();
    for (let i = 0; ok && i < n; i++) {
      if (r.arrayLength() !== 3) throw new TypeError('a stored contract argument is not [hex, repr, type]');
      // Hex needs no escaping.
      w.bytes(i > 0 ? PART.nextArg : PART.firstArg).bytes(b, r.str(), r.strEnd).bytes(PART.repr);
      ok = w.jsonString(b, r.str(), r.strEnd) && !!w.bytes(PART.type) && w.jsonString(b, r.str(), r.strEnd);
    }
    if (ok) {
      w.bytes(n > 0 ? PART.argsEnd : PART.noArgsEnd);
      return;
    }
  }
  w.length = mark;
  w.text(renderCall(unpack<CallPart>(b.subarray(start, end)), null, excludeFunctionArgs));
}
