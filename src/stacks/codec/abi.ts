// Contract ABIs (the `contract_abi` / `contract_interface` of a deploy in /new_block): type strings and
// function signatures as the reference renders contract-call args, and the `abi` JSON string of
// /extended/v1/contract/:id. The reference keeps ABIs in a PostgreSQL jsonb column, so its `abi` text
// has jsonb's key order — shorter keys first, then bytewise — and no whitespace.
import { Buffer } from 'node:buffer';

export type ClarityAbiType =
  | string // 'uint128' | 'int128' | 'bool' | 'principal' | 'none' | 'trait_reference' …
  | { buffer: { length: number } }
  | { 'string-ascii': { length: number } }
  | { 'string-utf8': { length: number } }
  | { response: { ok: ClarityAbiType; error: ClarityAbiType } }
  | { optional: ClarityAbiType }
  | { tuple: { name: string; type: ClarityAbiType }[] }
  | { list: { type: ClarityAbiType; length: number } };

export interface ClarityAbiFunctionArg {
  name: string;
  type: ClarityAbiType;
}

export interface ClarityAbiFunction {
  name: string;
  access: 'public' | 'read_only' | 'private' | string;
  args: ClarityAbiFunctionArg[];
  outputs?: { type: ClarityAbiType };
}

export interface ClarityAbi {
  functions: ClarityAbiFunction[];
  variables?: unknown[];
  maps?: unknown[];
  fungible_tokens?: unknown[];
  non_fungible_tokens?: unknown[];
  [key: string]: unknown;
}

/** An ABI given as an object or as JSON text; null/undefined/unparseable -> undefined. */
export function toAbi(abi: ClarityAbi | string | null | undefined): ClarityAbi | undefined {
  if (abi == null) return undefined;
  if (typeof abi === 'string') {
    try {
      abi = JSON.parse(abi) as ClarityAbi;
    } catch {
      return undefined;
    }
  }
  return typeof abi === 'object' && abi !== null && Array.isArray(abi.functions) ? abi : undefined;
}

/** Clarity type syntax of an ABI type: `uint`, `(buff 32)`, `(tuple (a uint))`, `(list 10 principal)` … */
export function abiTypeString(t: ClarityAbiType): string {
  if (typeof t === 'string') return t === 'int128' ? 'int' : t === 'uint128' ? 'uint' : t;
  if ('buffer' in t) return `(buff ${t.buffer.length})`;
  if ('string-ascii' in t) return `(string-ascii ${t['string-ascii'].length})`;
  if ('string-utf8' in t) return `(string-utf8 ${t['string-utf8'].length})`;
  if ('response' in t) return `(response ${abiTypeString(t.response.ok)} ${abiTypeString(t.response.error)})`;
  if ('optional' in t) return `(optional ${abiTypeString(t.optional)})`;
  if ('tuple' in t) return `(tuple ${t.tuple.map((f) => `(${f.name} ${abiTypeString(f.type)})`).join(' ')})`;
  if ('list' in t) return `(list ${t.list.length} ${abiTypeString(t.list.type)})`;
  throw new TypeError(`unsupported ABI type ${JSON.stringify(t)}`);
}

/** `(define-public (name (arg type) …))` — the reference's `function_signature`. */
export function abiFunctionSignature(fn: ClarityAbiFunction): string {
  const access = fn.access === 'read_only' ? 'read-only' : fn.access;
  return `(define-${access} (${fn.name} ${fn.args.map((a) => `(${a.name} ${abiTypeString(a.type)})`).join(' ')}))`;
}

export function findAbiFunction(abi: ClarityAbi | undefined, name: string): ClarityAbiFunction | undefined {
  if (!abi) return undefined;
  for (const fn of abi.functions) if (fn.name === name) return fn;
  return undefined;
}

function jsonbKeyOrder(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function jsonbValue(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return '[' + v.map(jsonbValue).join(',') + ']';
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort(jsonbKeyOrder);
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + jsonbValue(obj[k])).join(',') + '}';
}

/** The reference's `abi` string: compact JSON with jsonb key order. */
export function renderAbiJson(abi: unknown): string {
  return jsonbValue(typeof abi === 'string' ? JSON.parse(abi) : abi);
}
