// The ClickHouse type of every insertable column, read from the CREATE TABLE statements in sql/ (the
// one place the schema is written), for the Native encoder (native-format.ts). Columns the engine
// computes (MATERIALIZED, ALIAS, EPHEMERAL) and projection or index lines are not insertable.
import { loadMigrations } from './migrate.ts';

export type ColumnTypes = ReadonlyMap<string, ReadonlyMap<string, string>>;

let cached: ColumnTypes | undefined;

/** table -> column -> type, of the current migrations (read once per thread). */
export function columnTypes(): ColumnTypes {
  cached ??= parseColumnTypes(loadMigrations().flatMap((m) => m.statements));
  return cached;
}

export function parseColumnTypes(statements: readonly string[]): ColumnTypes {
  const out = new Map<string, Map<string, string>>();
  for (const st of statements) {
    const m = /^CREATE TABLE IF NOT EXISTS (\w+)\s*\(/.exec(st);
    if (!m) continue;
    const body = st.slice(m[0].length, closingParen(st, m[0].length - 1));
    const columns = new Map<string, string>();
    for (const part of splitTopLevel(body, ',')) {
      const def = part.trim();
      const name = /^(\w+)\s+/.exec(def);
      if (!name || /^(PROJECTION|INDEX|CONSTRAINT)\b/.test(def)) continue;
      const rest = def.slice(name[0].length);
      if (/\b(MATERIALIZED|ALIAS|EPHEMERAL)\b/.test(rest)) continue;
      columns.set(name[1], typeToken(rest));
    }
    out.set(m[1], columns);
  }
  return out;
}

/** Index of the parenthesis closing the one at `open`. */
function closingParen(s: string, open: number): number {
  let depth = 0;
  let quoted = false;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === "'") quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')' && --depth === 0) return i;
  }
  throw new Error(`unbalanced parentheses in ${s.slice(0, 60)}…`);
}

function splitTopLevel(s: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "'") quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')') depth--;
    else if (!quoted && depth === 0 && c === sep) {
      parts.push(s.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(s.slice(from));
  return parts;
}

/** The type at the start of a column definition's rest ("Nullable(String) CODEC(…) DEFAULT …"). */
function typeToken(rest: string): string {
  let depth = 0;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && /\s/.test(c)) return rest.slice(0, i);
  }
  return rest.trim();
}
