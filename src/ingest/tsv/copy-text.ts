// The Hiro event export format: TSV rows of id, receive timestamp, path and JSON payload, with
// PostgreSQL COPY text escaping applied to each field.

const UNESCAPE: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

export function copyUnescape(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_m, g: string) => {
    if (g[0] === 'x') return String.fromCharCode(parseInt(g.slice(1), 16));
    if (/^[0-7]/.test(g)) return String.fromCharCode(parseInt(g, 8));
    return UNESCAPE[g] ?? g;
  });
}

export function copyEscape(s: string): string {
  return s.replace(/[\\\n\r\t\b\f\v]/g, (c) => {
    switch (c) {
      case '\\': return '\\\\';
      case '\n': return '\\n';
      case '\r': return '\\r';
      case '\t': return '\\t';
      case '\b': return '\\b';
      case '\f': return '\\f';
      default: return '\\v';
    }
  });
}

/**
 * A payload field: COPY-escaped JSON normally; one known export wrote raw JSON. COPY escaping doubles
 * every backslash, so a quote behind an odd run of backslashes (JSON's own `\"`) only occurs in raw
 * JSON. This decides without parsing the (possibly huge) payload.
 */
export function payloadText(field: string): string {
  if (!field.includes('\\')) return field;
  for (let i = field.indexOf('\\"'); i >= 0; i = field.indexOf('\\"', i + 2)) {
    let run = 1;
    while (i - run >= 0 && field.charCodeAt(i - run) === 0x5c) run++;
    if (run % 2 === 1) return field;
  }
  return copyUnescape(field);
}

export interface TsvRow {
  id: number;
  timestamp: string;
  path: string;
  payload: string;
}

export function parseTsvLine(line: string): TsvRow | null {
  if (!line.trim()) return null;
  const t1 = line.indexOf('\t');
  const t2 = line.indexOf('\t', t1 + 1);
  const t3 = line.indexOf('\t', t2 + 1);
  if (t1 < 0 || t2 < 0 || t3 < 0) throw new Error(`not a 4-column event row: ${line.slice(0, 80)}`);
  const id = Number(line.slice(0, t1));
  if (!Number.isSafeInteger(id)) throw new Error(`bad id column: ${line.slice(0, t1)}`);
  return { id, timestamp: line.slice(t1 + 1, t2), path: line.slice(t2 + 1, t3), payload: payloadText(line.slice(t3 + 1)) };
}

/** Postgres timestamptz text ('2021-08-05 16:38:39.859937+00') or ISO → ms since epoch. */
export function parseTimestamp(ts: string): number {
  let s = ts.trim().replace(' ', 'T');
  s = s.replace(/([+-]\d\d)$/, '$1:00');
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? Date.now() : ms;
}

export function formatTimestamp(ms: number): string {
  // Postgres text form with microseconds, UTC.
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '000+00');
}
