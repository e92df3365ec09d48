// The serving bench's cases (issue 12's targets) and its mixed run: every case interleaved while
// the held-back tail of the log is POSTed to the observer, with the ingest rate meanwhile.
import { runCli } from './run-cli.ts';
import { closedLoop, type LoadResult } from '../query/load.ts';
import type { QueryTargets } from '../query/targets.ts';
import { readTsvRows } from '../../src/ingest/tsv/read-tsv.ts';

export interface Case {
  name: string;
  path: (i: number) => string;
  target: { rps: number; p99: number };
  /** The reference API's req/s at 32 clients on the side-by-side 100k-tx chain (issue 35): the
   *  first-time reads it names, measured on a 2-core machine like this one. */
  reference?: number;
}

export function cases(t: QueryTargets): Case[] {
  const at = <T>(list: T[], i: number) => list[i % list.length];
  const deep = Math.min(50_000, Math.max(0, t.heavyCount - 50));
  return [
    { name: 'tx by id', path: (i) => `/extended/v1/tx/${at(t.txIds, i)}`, target: { rps: 8000, p99: 10 }, reference: 771 },
    { name: 'block by height', path: (i) => `/extended/v1/block/by_height/${at(t.heights, i)}`, target: { rps: 8000, p99: 10 }, reference: 685 },
    { name: 'with_transfers', path: (i) => `/extended/v1/address/${at(t.pairs, i)[0]}/${at(t.pairs, i)[1]}/with_transfers`, target: { rps: 5000, p99: 15 }, reference: 1432 },
    { name: 'address balances', path: (i) => `/extended/v1/address/${at(t.principals, i)}/balances`, target: { rps: 5000, p99: 15 }, reference: 868 },
    { name: 'address stx', path: (i) => `/extended/v1/address/${at(t.principals, i)}/stx`, target: { rps: 5000, p99: 15 }, reference: 919 },
    { name: `heaviest address (${t.heavyCount} txs), first page of 50`, path: () => `/extended/v1/address/${t.heavyPrincipal}/transactions?limit=50`, target: { rps: 1500, p99: 40 }, reference: 168 },
    { name: `heaviest address, offset ${deep.toLocaleString('en-US')}`, path: () => `/extended/v1/address/${t.heavyPrincipal}/transactions?limit=50&offset=${deep}`, target: { rps: 300, p99: 150 } },
    { name: 'v2 block transactions (page of 50)', path: (i) => `/extended/v2/blocks/${at(t.heights, i)}/transactions?limit=50`, target: { rps: 2000, p99: 30 }, reference: 936 },
    ...v3Cases(t),
  ];
}

/** Issue 34: the v3 twins of the heaviest-address and block-transaction rows, with their targets. */
export function v3Cases(t: QueryTargets): Case[] {
  const at = <T>(list: T[], i: number) => list[i % list.length];
  return [
    { name: 'v3 heaviest principal, first page of 50', path: () => `/extended/v3/principals/${t.heavyPrincipal}/transactions?limit=50`, target: { rps: 1500, p99: 40 } },
    { name: 'v3 heaviest principal, cursor at depth 50,000', path: () => `/extended/v3/principals/${t.heavyPrincipal}/transactions?limit=50&cursor=${t.heavyDeepCursor}`, target: { rps: 300, p99: 150 } },
    { name: 'v3 block transactions (page of 50)', path: (i) => `/extended/v3/blocks/${at(t.heights, i)}/transactions?limit=50`, target: { rps: 2000, p99: 30 } },
  ];
}

/** The lists issue 35 also compares with the reference (first pages; targets: 10× its req/s). */
export const listCases = (): Case[] => [
  { name: 'tx list (page of 50)', path: () => '/extended/v1/tx?limit=50', target: { rps: 2870, p99: 50 }, reference: 287 },
  { name: 'block list (page of 20)', path: () => '/extended/v1/block?limit=20', target: { rps: 3580, p99: 50 }, reference: 358 },
  { name: 'mempool list (page of 50)', path: () => '/extended/v1/tx/mempool?limit=50', target: { rps: 13220, p99: 50 }, reference: 1322 },
];

/** Every read case, the serving path's and the lists. */
export const readCases = (t: QueryTargets): Case[] => [...cases(t), ...listCases()];

/** Txs each /new_block entry of a log carries, by entry id. */
export async function txsByEntry(file: string): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for await (const r of readTsvRows(file)) {
    if (r.path === '/new_block') out.set(r.id, (JSON.parse(r.payload) as { transactions: unknown[] }).transactions.length);
  }
  return out;
}

export async function processedId(apiUrl: string): Promise<number> {
  const s = (await (await fetch(`${apiUrl}/extended`)).json()) as { event_log: { processed_id: number } };
  return s.event_log.processed_id;
}

/** Every case interleaved at 32 clients while `tail` is POSTed as a node would; txs/s ingested. */
export async function mixedWhileIngesting(svc: { apiUrl: string; eventUrl: string }, list: Case[], tail: string, limits: { requests: number; seconds: number }): Promise<{ mixed: LoadResult; ingestRate: number }> {
  const perEntry = await txsByEntry(tail);
  const feeding = runCli('bench/lib/feed.ts', [tail, svc.eventUrl]);
  await new Promise((r) => setTimeout(r, 3000));
  const [p0, w0] = [await processedId(svc.apiUrl), performance.now()];
  // At least 30 s: a live batch commits every few seconds, slower under read load, so a shorter
  // window can end before the first commit and read as no ingest at all.
  const window = { ...limits, seconds: Math.max(30, limits.seconds) };
  const mixed = await closedLoop(svc.apiUrl, 'all cases mixed, while ingesting', (i) => list[i % list.length].path(Math.floor(i / list.length)), 32, window);
  const [p1, w1] = [await processedId(svc.apiUrl), performance.now()];
  let ingested = 0;
  for (const [id, txs] of perEntry) if (id > p0 && id <= p1) ingested += txs;
  await feeding;
  return { mixed, ingestRate: ingested / ((w1 - w0) / 1000) };
}
