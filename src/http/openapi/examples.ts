// Makes schemas/api/examples.json: for each documented operation, a small answer the reference API
// gave (from ../shared/goldens), by `METHOD /path/{param}` and status (and `request` for a POST's
// body). The OpenAPI document shows them as examples. Made by src/cli/openapi-examples.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { PathMatcher } from './match.ts';
import type { ExampleTable } from './openapi.ts';

/** An example longer than this (as JSON) is left out unless nothing shorter was recorded. */
const PREFERRED_CHARS = 2500;
/** Never longer than this. */
const MAX_CHARS = 12_000;

interface Golden {
  url: string;
  method?: string;
  status: number;
  body: unknown;
  request_body?: unknown;
}

/** Picks, per operation and status, the first recorded answer under PREFERRED_CHARS, else the shortest. */
export function collectExamples(goldens: Iterable<Golden>, documented: Record<string, Record<string, unknown>>): ExampleTable {
  const matcher = new PathMatcher(Object.keys(documented));
  const best = new Map<string, { text: string; body: unknown; request?: unknown }>();
  for (const g of goldens) {
    const method = (g.method ?? 'GET').toLowerCase();
    const path = matcher.match(g.url);
    if (!path || !documented[path]?.[method]) continue;
    if (g.status < 200 || g.status >= 300 || typeof g.body !== 'object' || g.body === null) continue;
    const key = `${method.toUpperCase()} ${path}|${g.status}`;
    const text = JSON.stringify(g.body);
    if (text.length > MAX_CHARS) continue;
    const had = best.get(key);
    if (!had || (had.text.length > PREFERRED_CHARS && text.length < had.text.length)) best.set(key, { text, body: g.body, request: g.request_body });
  }
  const table: ExampleTable = {};
  for (const [key, e] of [...best].sort(([a], [b]) => a.localeCompare(b))) {
    const [op, status] = key.split('|');
    table[op] ??= {};
    table[op][status] = e.body;
    if (e.request !== undefined) table[op].request = e.request;
  }
  return table;
}

/** The recorded requests and answers of every golden file in `dir` (or of the files named). */
export function* readGoldens(dir: string, files?: readonly string[]): Generator<Golden> {
  for (const f of files ?? readdirSync(dir).filter((n) => n.endsWith('.jsonl.gz')).sort()) {
    for (const line of gunzipSync(readFileSync(join(dir, f))).toString('utf8').split('\n')) if (line) yield JSON.parse(line) as Golden;
  }
}
