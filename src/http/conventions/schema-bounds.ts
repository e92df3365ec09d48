// Every integer a request may carry gets a range, so no number reaches a query that the store
// cannot hold: a parameter without its own bounds is limited to 0..UInt32 max (heights, offsets,
// times and indexes are UInt32 columns; the store wraps or refuses larger values, a 500).
import type { JsonSchema } from '../route.ts';

export const UINT32_MAX = 4294967295;

const isInteger = (s: Record<string, unknown>) => s.type === 'integer' || (Array.isArray(s.type) && s.type.includes('integer'));

/** A copy of `schema` in which every integer has a minimum and a maximum. */
export function withIntegerBounds<T extends JsonSchema | undefined>(schema: T): T {
  if (!schema) return schema;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = walk(v);
    if (isInteger(out)) {
      out.minimum ??= 0;
      out.maximum ??= UINT32_MAX;
    }
    return out;
  };
  return walk(schema) as T;
}
