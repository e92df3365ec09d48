// The query benchmark: the endpoints at 1, 8 and 32 closed-loop clients against a running
// service on a populated store.
import { closedLoop, type LoadResult, type QueryRequest } from './load.ts';
import type { QueryTargets } from './targets.ts';

export function queryCases(t: QueryTargets): Array<{ name: string; path: (i: number) => QueryRequest; warm?: number }> {
  const pick = <T>(list: T[], i: number) => list[i % list.length];
  const principal = (i: number) => pick(t.principals, i);
  const network_identifier = { blockchain: 'stacks', network: t.network };
  const rosetta = (path: string, body: Record<string, unknown>): QueryRequest => ({ path: `/rosetta/v1${path}`, body: { network_identifier, ...body } });
  return [
    { name: 'tx by id', path: (i) => `/extended/v1/tx/${pick(t.txIds, i)}` },
    // Txs asked for before: a mined canonical tx's answer is cached until a reorg, across new blocks.
    { name: 'tx by id, asked before (200 ids)', path: (i) => `/extended/v1/tx/${t.txIds[i % Math.min(200, t.txIds.length)]}`, warm: 200 },
    { name: `heavy address txs, first page (${t.heavyCount} txs)`, path: () => `/extended/v1/address/${t.heavyPrincipal}/transactions?limit=50` },
    { name: 'heavy address txs, offset 50,000', path: () => `/extended/v1/address/${t.heavyPrincipal}/transactions?limit=50&offset=${Math.min(50_000, Math.max(0, t.heavyCount - 50))}` },
    { name: 'address STX balance', path: (i) => `/extended/v1/address/${principal(i)}/stx` },
    { name: 'address balances', path: (i) => `/extended/v1/address/${principal(i)}/balances` },
    { name: 'with_transfers', path: (i) => `/extended/v1/address/${principal(i)}/${pick(t.txIds, i)}/with_transfers` },
    { name: 'block list', path: () => `/extended/v1/block?limit=20` },
    { name: 'v2 block transactions', path: (i) => `/extended/v2/blocks/${pick(t.heights, i)}/transactions` },
    { name: 'mempool list', path: () => `/extended/v1/tx/mempool?limit=50` },
    { name: 'search by tx id', path: (i) => `/extended/v1/search/${pick(t.txIds, i)}` },
    { name: 'search by principal', path: (i) => `/extended/v1/search/${principal(i)}` },
    { name: 'contract events (busiest contract)', path: () => `/extended/v1/contract/${t.busiestContract}/events?limit=50` },
    { name: 'NFT holdings of the heaviest holder', path: () => `/extended/v1/tokens/nft/holdings?principal=${t.heavyNftHolder}` },
    { name: 'FT holders of the busiest token', path: () => `/extended/v1/tokens/ft/${encodeURIComponent(t.busiestToken)}/holders` },
    { name: 'BNS name lookup', path: () => `/v1/names/${t.bnsName}` },
    { name: 'rosetta block', path: (i) => rosetta('/block', { block_identifier: { index: pick(t.heights, i) } }) },
    { name: 'rosetta account balance', path: (i) => rosetta('/account/balance', { account_identifier: { address: principal(i) } }) },
    { name: 'rosetta account balance at a block', path: (i) => rosetta('/account/balance', { account_identifier: { address: principal(i) }, block_identifier: { index: pick(t.heights, i) } }) },
  ];
}

/** `only`: the cases whose name it matches (all by default). */
export async function runQuerySuite(apiUrl: string, t: QueryTargets, concurrency: number[], limits: { requests: number; seconds: number }, only?: RegExp): Promise<LoadResult[]> {
  const out: LoadResult[] = [];
  for (const c of queryCases(t).filter((c) => !only || only.test(c.name))) {
    // Warm caches and connections so the first measured requests are not cold.
    await closedLoop(apiUrl, c.name, c.path, 4, { requests: c.warm ?? 50, seconds: 30 });
    for (const clients of concurrency) out.push(await closedLoop(apiUrl, c.name, c.path, clients, limits));
  }
  return out;
}

/** One mixed run: every case interleaved, while something else (e.g. an ingest) runs. */
export async function runMixed(apiUrl: string, t: QueryTargets, clients: number, limits: { requests: number; seconds: number }): Promise<LoadResult> {
  const cases = queryCases(t);
  return closedLoop(apiUrl, 'mixed (all cases interleaved)', (i) => cases[i % cases.length].path(Math.floor(i / cases.length)), clients, limits);
}
