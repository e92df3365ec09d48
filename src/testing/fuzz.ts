// Helpers of the fuzz tests: a seeded random source (a failure replays from its seed) and the
// mutations applied to real request bodies and URLs.

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)],
    chance: (p: number) => next() < p,
  };
}

export type Random = ReturnType<typeof seeded>;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Numbers a store or a parser may choke on. */
export const EDGE_NUMBERS = [-1, -2147483649, 0, 1.5, 255, 256, 65535, 65536, 2147483647, 2147483648, 4294967295, 4294967296, 9007199254740991, 9007199254740993, 18446744073709551616, 1e21, 1e41, 1e308, -1e308];

/** Numbers padded by whitespace, as text: a parser that trims reads them as numbers, a store's does not. */
export const PADDED_NUMBER_TEXTS = [' 1', '1 ', '\t1', '\n1\n', '  2147483648 ', ' -1', ' 0x10'];

/** The same in a URL's query string (`+` is a space there, as in the reference's parser). */
export const PADDED_NUMBERS = ['%201', '1%20', '%091', '%0A1%0A', '%20%201%20%20', '+1'];

/** Every place in a JSON value: a parent (object or array) and a key, with the value there. */
function places(root: Json): Array<{ parent: Json[] | { [k: string]: Json }; key: string | number; value: Json }> {
  const out: Array<{ parent: Json[] | { [k: string]: Json }; key: string | number; value: Json }> = [];
  const stack: Json[] = [root];
  while (stack.length > 0 && out.length < 50_000) {
    const v = stack.pop()!;
    if (Array.isArray(v)) v.forEach((x, i) => (out.push({ parent: v, key: i, value: x }), stack.push(x)));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push({ parent: v, key: k, value: x }), stack.push(x);
  }
  return out;
}

function otherType(rnd: Random, v: Json): Json {
  const options: Json[] = ['text', 7, true, null, [], {}, '0x', ''];
  const typeOf = (x: Json) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x);
  const candidates = options.filter((o) => typeOf(o) !== typeOf(v));
  return rnd.pick(candidates);
}

function nested(depth: number): Json {
  let v: Json = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { n: v };
  return v;
}

/** Bodies that already carry a large value. */
const large = new WeakSet<object>();

/** One structural mutation of a parsed body, in place; returns what it did. */
export function mutateValue(rnd: Random, root: Json): string {
  const all = places(root);
  if (all.length === 0) return 'nothing to mutate';
  const numbers = all.filter((p) => typeof p.value === 'number');
  const hexes = all.filter((p) => typeof p.value === 'string' && p.value.startsWith('0x'));
  const arrays = all.filter((p) => Array.isArray(p.value));
  const objects = all.filter((p) => p.value && typeof p.value === 'object' && !Array.isArray(p.value));
  const set = (p: (typeof all)[number], v: Json) => ((p.parent as Record<string | number, Json>)[p.key] = v);
  switch (rnd.int(7)) {
    case 0: {
      const p = rnd.pick(all);
      if (Array.isArray(p.parent)) p.parent.splice(p.key as number, 1);
      else delete p.parent[p.key as string];
      return `dropped ${p.key}`;
    }
    case 1: {
      const p = rnd.pick(all);
      set(p, otherType(rnd, p.value));
      return `retyped ${p.key}`;
    }
    case 2: {
      if (numbers.length === 0) return mutateValue(rnd, root);
      const p = rnd.pick(numbers);
      // A number, or one written as text with whitespace around it.
      set(p, rnd.chance(0.25) ? rnd.pick(PADDED_NUMBER_TEXTS) : rnd.pick(EDGE_NUMBERS));
      return `number ${p.key}`;
    }
    case 3: {
      if (hexes.length === 0) return mutateValue(rnd, root);
      const p = rnd.pick(hexes);
      const s = p.value as string;
      set(p, rnd.pick([s.slice(0, -1), `${s}0`, `${s.slice(0, -2)}zz`, s.slice(2), '0x', `0x${'ab'.repeat(40_000)}`]));
      return `hex ${p.key}`;
    }
    case 4: {
      const p = rnd.pick(objects.length ? objects : all);
      set(p, nested(rnd.pick([64, 300, 1_000])));
      return `nested ${p.key}`;
    }
    case 5: {
      if (arrays.length === 0 || large.has(root as object)) return mutateValue(rnd, root);
      // One large value per body: it stays some MB, not hundreds.
      large.add(root as object);
      const p = rnd.pick(arrays);
      const a = p.value as Json[];
      if (rnd.chance(0.2)) {
        // A string longer than a row the store takes.
        const strings = all.filter((x) => typeof x.value === 'string');
        if (strings.length) {
          const q = rnd.pick(strings);
          set(q, `${String(q.value).slice(0, 2)}${'a'.repeat(9 * 1024 * 1024)}`);
          return `huge string ${q.key}`;
        }
      }
      set(p, a.length > 0 && rnd.chance(0.5) ? Array.from({ length: 2_000 }, () => a[0]) : Array.from({ length: 20_000 }, (_, i) => i));
      return `large array ${p.key}`;
    }
    default: {
      if (objects.length === 0) return mutateValue(rnd, root);
      const p = rnd.pick(objects);
      (p.value as Record<string, Json>)[rnd.pick(['extra', 'block_height', 'txid', 'constructor'])] = otherType(rnd, null);
      return `added a field to ${p.key}`;
    }
  }
}

/** A mutated body of `payload` (JSON text): structural mutations, or text-level damage (duplicate
 *  keys, truncation, garbage, exponent overflow). */
export function mutateBody(rnd: Random, payload: string): { body: string; what: string } {
  const kind = rnd.int(10);
  if (kind === 0) return { body: payload.slice(0, rnd.int(payload.length)), what: 'truncated' };
  if (kind === 1) {
    // A duplicate key: JSON.parse keeps the last one.
    const i = payload.indexOf('{');
    return i < 0 ? { body: `{"dup":1,${payload}`, what: 'garbage' } : { body: `${payload.slice(0, i + 1)}"block_height":"dup",${payload.slice(i + 1)}`, what: 'duplicate key' };
  }
  if (kind === 2) return { body: payload.replace(/:(\d+)([,}])/, (_m, _d, end) => `:${rnd.pick(['1e400', '-0', '1E+41', '0.5', '00012'])}${end}`), what: 'number text' };
  if (kind === 3) return { body: rnd.pick(['', 'null', '[]', '{}', '"text"', '\u0000\u00ff', '{"a":', '[1,2,3]', '{"__proto__":{"x":1}}']), what: 'garbage' };
  if (kind === 4) {
    // Nesting far past any parser's or serializer's recursion, spliced in as text.
    const depth = rnd.pick([1_000, 100_000]);
    const i = payload.indexOf('{');
    const deep = `"deep":${'['.repeat(depth)}${']'.repeat(depth)},`;
    return { body: i < 0 ? `[${deep.slice(7, -1)}]` : `${payload.slice(0, i + 1)}${deep}${payload.slice(i + 1)}`, what: `nested ${depth} deep` };
  }
  let value: Json;
  try {
    value = JSON.parse(payload) as Json;
  } catch {
    return { body: payload, what: 'unparsable source' };
  }
  const whats: string[] = [];
  const n = 1 + rnd.int(3);
  for (let i = 0; i < n; i++) whats.push(mutateValue(rnd, value));
  try {
    return { body: JSON.stringify(value), what: whats.join(', ') };
  } catch {
    return { body: payload, what: 'unchanged (too deep to serialize here)' };
  }
}
