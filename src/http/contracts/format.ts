// Contracts as the reference shows them, and its trait match.
import type { ContractRow } from './queries.ts';

/**
 * JSON text with object keys in PostgreSQL jsonb order (shorter keys first, then bytewise), no
 * spaces: the reference stores ABIs as jsonb and prints them back that way.
 */
export function jsonbText(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const keys = Object.keys(v).sort((a, b) => a.length - b.length || (Buffer.compare(Buffer.from(a), Buffer.from(b))));
    return Object.fromEntries(keys.map((k) => [k, (v as Record<string, unknown>)[k]]));
  });
}

const parseJson = (text: string | null): unknown => {
  if (text === null || text === 'null') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

export function formatContract(c: ContractRow, canonical: boolean): Record<string, unknown> {
  const abi = parseJson(c.abi);
  return {
    tx_id: c.tx_id,
    canonical,
    contract_id: c.contract_id,
    block_height: c.block_height,
    clarity_version: c.clarity_version,
    source_code: c.source_code,
    abi: abi === null ? null : jsonbText(abi),
  };
}

/** jsonb containment (`@>`): objects by key, arrays element-wise in any order, scalars by value. */
export function jsonContains(container: unknown, contained: unknown): boolean {
  if (Array.isArray(contained)) {
    if (!Array.isArray(container)) return false;
    return contained.every((c) => container.some((x) => jsonContains(x, c)));
  }
  if (contained && typeof contained === 'object') {
    if (!container || typeof container !== 'object' || Array.isArray(container)) return false;
    return Object.entries(contained).every(([k, v]) => k in container && jsonContains((container as Record<string, unknown>)[k], v));
  }
  return container === contained;
}

interface TraitFunction {
  name?: unknown;
  access?: unknown;
  args?: Array<{ type?: unknown }>;
  outputs?: unknown;
}

/** What a contract's ABI functions must contain for the trait, as the reference queries it. */
export function traitFunctions(trait: { functions: TraitFunction[] }): unknown[] {
  return trait.functions.map((f) => ({ name: f.name, access: f.access, args: (f.args ?? []).map((a) => ({ type: a.type })), outputs: f.outputs }));
}

export function implementsTrait(abiText: string | null, wanted: unknown[]): boolean {
  const abi = parseJson(abiText) as { functions?: unknown } | null;
  return !!abi && jsonContains(abi.functions, JSON.parse(JSON.stringify(wanted)));
}
