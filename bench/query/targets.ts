// Picks what the query benchmark asks for from a populated store: sample tx ids, the principal
// with the most txs, an ordinary principal, block heights. Run as its own process (chdb allows one
// process per data directory) before the service starts: `STACKS_API_DATA_DIR=… tsx bench/query/targets.ts`.
import { loadConfig } from '../../src/config/config.ts';
import { openStore } from '../../src/storage/client.ts';

export interface QueryTargets {
  txIds: string[];
  heavyPrincipal: string;
  heavyCount: number;
  principals: string[];
  heights: number[];
  /** The Rosetta network name of the chain ('mainnet' for SP/SM addresses). */
  network: 'mainnet' | 'testnet';
}

async function main(): Promise<void> {
  const config = loadConfig();
  const store = await openStore(config.store, config.dataDir);
  const q = async <T>(sql: string) => (await store.client.query({ query: sql, format: 'JSONEachRow' })).json<T>();
  const txIds = (await q<{ tx_id: string }>(`SELECT tx_id FROM txs WHERE index_block_hash != '' ORDER BY cityHash64(tx_id) LIMIT 2000`)).map((r) => r.tx_id);
  const heavy = await q<{ principal: string; n: string }>(`SELECT principal, count() AS n FROM principal_txs WHERE principal NOT LIKE '%.%' GROUP BY principal ORDER BY n DESC LIMIT 1`);
  const principals = (await q<{ principal: string }>(`SELECT DISTINCT principal FROM principal_txs WHERE principal NOT LIKE '%.%' ORDER BY cityHash64(principal) LIMIT 500`)).map((r) => r.principal);
  const heights = (await q<{ h: string }>(`SELECT block_height AS h FROM block_canonical FINAL WHERE canonical = 1 ORDER BY cityHash64(index_block_hash) LIMIT 500`)).map((r) => Number(r.h));
  const network = /^S[PM]/.test(principals[0] ?? 'SP') ? 'mainnet' : 'testnet';
  const targets: QueryTargets = { txIds, heavyPrincipal: heavy[0]?.principal ?? '', heavyCount: Number(heavy[0]?.n ?? 0), principals, heights, network };
  console.log(JSON.stringify(targets));
  await store.client.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
