// How deeply a parsed JSON value nests, found without recursion (a value nested 100k deep must
// not overflow the stack while it is being measured). JSON.parse itself is iterative in V8; what
// recurses is JSON.stringify, which the decoder applies to the free-form parts of a body (a
// contract ABI, a burnchain op, a reward set, a proposal response).

/** True when `value` opens at most `limit` arrays/objects inside each other. */
export function withinDepth(value: unknown, limit: number): boolean {
  const stack: Array<{ v: object; depth: number }> = [];
  if (value && typeof value === 'object') stack.push({ v: value, depth: 1 });
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (depth > limit) return false;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) if (c && typeof c === 'object') stack.push({ v: c, depth: depth + 1 });
  }
  return true;
}
