// Binding a read's named parameters into its SQL text, for the embedded engine.
//
// Why: chdb's parameter state is not per connection, so its Node binding runs every parameterized
// query of the process on one chain, one at a time (chdb/index.js, `globalParamChain`). The API's
// read sessions therefore never ran side by side. A query without parameters is not chained.
//
// Each `{name:Type}` becomes `CAST(<literal> AS Type)`, which is what the engine's own substitution
// builds, with the literal quoted by ClickHouse's rules. Only the types below are bound here; any
// other type or value returns undefined and the caller lets the engine bind it, so an odd value is
// refused by the engine exactly as before. src/storage/inline-params.test.ts checks that every
// binding equals the engine's on fuzzed values.

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*):([A-Za-z0-9_(), ]+)\}/g;
const INTEGER_TYPE = /^(U?)Int(8|16|32|64|128|256)$/;
const ARRAY_TYPE = /^Array\((.+)\)$/;

/** The query with every placeholder bound, or undefined when one can't be bound here. */
export function inlineParams(query: string, params: Record<string, unknown>): string | undefined {
  let failed = false;
  const out = query.replace(PLACEHOLDER, (whole, name: string, rawType: string) => {
    const type = rawType.trim();
    const literal = Object.hasOwn(params, name) ? typedLiteral(params[name], type) : undefined;
    if (literal === undefined) {
      failed = true;
      return whole;
    }
    return `CAST(${literal} AS ${type})`;
  });
  return failed ? undefined : out;
}

/** A literal the engine reads as `type`, without the CAST; undefined when not bound here. */
function typedLiteral(value: unknown, type: string, inArray = false): string | undefined {
  if (type === 'String') return typeof value === 'string' ? quoteString(value) : undefined;
  const integer = INTEGER_TYPE.exec(type);
  // The engine reads a digit string as a number on its own, but not inside an array (it is quoted there).
  if (integer) return inArray && typeof value === 'string' ? undefined : integerLiteral(value, integer[1] === 'U', Number(integer[2]));
  const array = ARRAY_TYPE.exec(type);
  if (array && Array.isArray(value)) {
    const parts: string[] = [];
    for (const item of value) {
      const literal = typedLiteral(item, array[1].trim(), true);
      if (literal === undefined) return undefined;
      parts.push(literal);
    }
    return `[${parts.join(', ')}]`;
  }
  return undefined;
}

function integerLiteral(value: unknown, unsigned: boolean, bits: number): string | undefined {
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && /^-?\d{1,80}$/.test(value)) n = BigInt(value);
  else return undefined;
  const min = unsigned ? 0n : -(1n << BigInt(bits - 1));
  const max = unsigned ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n;
  if (n < min || n > max) return undefined;
  // The parser reads a number literal beyond 64 bits as a float: wider types get the digits as text.
  return bits > 64 ? `'${n}'` : n.toString();
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\0': '\\0', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A ClickHouse string literal: backslash and quote escaped, control characters as escapes. */
export function quoteString(text: string): string {
  // eslint-disable-next-line no-control-regex
  return `'${text.replace(/[\\'\x00-\x1f\x7f]/g, (c) => ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}'`;
}
