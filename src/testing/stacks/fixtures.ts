// Test/bench support: reads the recorded node event logs in ../shared/fixtures and the reference API's
// recorded answers in ../shared/goldens. Not used at runtime.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { SHARED } from '../service.ts';

export const FIXTURES_DIR = path.join(SHARED, 'fixtures');
export const GOLDENS_DIR = path.join(SHARED, 'goldens');

export interface FixtureTx {
  fixture: string;
  /** Event path it came from: /new_block, /new_microblocks or /new_mempool_tx. */
  path: string;
  rawTx: string;
  /** The node's txid (absent for mempool entries). */
  txid?: string;
  rawResult?: string;
  status?: string;
  /** contract_interface ?? contract_abi of a deploy. */
  abi?: unknown;
}

export interface FixtureEvent {
  fixture: string;
  txid: string;
  type: string;
  rawValue: string;
}

export interface Fixture {
  name: string;
  txs: FixtureTx[];
  events: FixtureEvent[];
}

/** Postgres COPY text un-escaping (as tools/feed-events.mjs does). */
function copyUnescape(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_m, g: string) => {
    switch (g[0]) {
      case 'b': return '\b';
      case 'f': return '\f';
      case 'n': return '\n';
      case 'r': return '\r';
      case 't': return '\t';
      case 'v': return '\v';
      case 'x': return String.fromCharCode(parseInt(g.slice(1), 16));
      default: return /^[0-7]/.test(g) ? String.fromCharCode(parseInt(g, 8)) : g;
    }
  });
}

function parsePayload(field: string): unknown {
  if (!field.includes('\\')) return JSON.parse(field);
  const un = copyUnescape(field);
  try {
    return JSON.parse(un);
  } catch {
    return JSON.parse(field);
  }
}

type Json = Record<string, any>;

function collectBlock(f: Fixture, pathName: string, body: Json): void {
  for (const t of (body.transactions ?? []) as Json[]) {
    f.txs.push({
      fixture: f.name,
      path: pathName,
      rawTx: t.raw_tx,
      txid: t.txid,
      rawResult: t.raw_result,
      status: t.status,
      abi: t.contract_interface ?? t.contract_abi ?? undefined,
    });
  }
  for (const e of (body.events ?? []) as Json[]) {
    const inner = e[e.type] as Json | undefined;
    if (inner && typeof inner.raw_value === 'string') f.events.push({ fixture: f.name, txid: e.txid, type: e.type, rawValue: inner.raw_value });
  }
}

function loadLog(name: string, text: string): Fixture {
  const f: Fixture = { name, txs: [], events: [] };
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const [, , pathName, ...rest] = line.split('\t');
    const body = parsePayload(rest.join('\t')) as Json;
    if (pathName === '/new_block' || pathName === '/new_microblocks') collectBlock(f, pathName, body);
    else if (pathName === '/new_mempool_tx') {
      for (const raw of body as unknown as string[]) f.txs.push({ fixture: name, path: pathName, rawTx: raw });
    }
  }
  return f;
}

let cached: Fixture[] | undefined;

/** Every fixture: *.tsv, *.tsv.gz and the directories of /new_block JSON bodies. */
export function loadFixtures(): Fixture[] {
  if (cached) return cached;
  if (!existsSync(FIXTURES_DIR)) throw new Error(`fixtures not found at ${FIXTURES_DIR} (set STACKS_SHARED_DIR)`);
  const out: Fixture[] = [];
  for (const file of readdirSync(FIXTURES_DIR).sort()) {
    const full = path.join(FIXTURES_DIR, file);
    if (file.endsWith('.tsv')) out.push(loadLog(file.slice(0, -4), readFileSync(full, 'utf8')));
    else if (file.endsWith('.tsv.gz')) out.push(loadLog(file.slice(0, -7), gunzipSync(readFileSync(full)).toString('utf8')));
    else if (!file.includes('.')) {
      const f: Fixture = { name: file, txs: [], events: [] };
      for (const j of readdirSync(full).sort()) {
        if (j.endsWith('.json')) collectBlock(f, '/new_block', JSON.parse(readFileSync(path.join(full, j), 'utf8')));
      }
      out.push(f);
    }
  }
  cached = out;
  return out;
}

/** Distinct raw transactions over all fixtures (burnchain-op placeholders "0x00" excluded). */
export function distinctRawTxs(): FixtureTx[] {
  const seen = new Set<string>();
  const out: FixtureTx[] = [];
  for (const f of loadFixtures()) {
    for (const t of f.txs) {
      if (t.rawTx === '0x00' || seen.has(t.rawTx)) continue;
      seen.add(t.rawTx);
      out.push(t);
    }
  }
  return out;
}

export interface GoldenLine {
  url: string;
  status: number;
  body: any;
  unordered?: boolean;
  wallclock?: boolean;
}

/** Fixture names that have goldens. */
export function goldenNames(): string[] {
  if (!existsSync(GOLDENS_DIR)) throw new Error(`goldens not found at ${GOLDENS_DIR} (set STACKS_SHARED_DIR)`);
  return readdirSync(GOLDENS_DIR).filter((f) => f.endsWith('.jsonl.gz')).map((f) => f.slice(0, -'.jsonl.gz'.length)).sort();
}

export function loadGoldens(name: string): GoldenLine[] {
  const text = gunzipSync(readFileSync(path.join(GOLDENS_DIR, `${name}.jsonl.gz`))).toString('utf8');
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as GoldenLine);
}
