// Picks what the query benchmark asks for from a populated store: sample tx ids, the principal
// with the most txs, an ordinary principal, block heights. Run as its own process (chdb allows one
// process per data directory) before the service starts: `STACKS_API_DATA_DIR=… tsx bench/query/targets.ts`.
import { loadConfig } from '../../src/config/config.ts';
import { openStore } from '../../src/storage/client.ts';
import { SINGLE_WITH_TRANSFERS_ROLES } from '../../src/stacks/roles.ts';

export interface QueryTargets {
  txIds: string[];
  heavyPrincipal: string;
  heavyCount: number;
  principals: string[];
  heights: number[];
  /** The principal whose NFT events are the most (its holdings are the heaviest read). */
  heavyNftHolder: string;
  /** The FT with the most holders. */
  busiestToken: string;
  /** The contract that printed the most events. */
  busiestContract: string;
  /** A registered BNS name (the generated chains register none: then a name that does not exist). */
  bnsName: string;
  /** (principal, tx id) pairs where the principal took part in the tx in a role the single-tx
   *  with_transfers answers for (a sponsor alone gets the reference's 404). */
  pairs: Array<[string, string]>;
  /** The Rosetta network name of the chain ('mainnet' for SP/SM addresses). */
  network: 'mainnet' | 'testnet';
  /** The v3 cursor (`height:sequence:index`) of the heavy principal's tx at depth 50,000 (or its
   *  last tx, if it has fewer), newest first. */
  heavyDeepCursor: string;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const store = await openStore(config.store, config.dataDir);
  const q = async <T>(sql: string) => (await store.client.query({ query: sql, format: 'JSONEachRow' })).json<T>();
  // Enough that a serving benchmark asks each at most once or twice.
  const txIds = (await q<{ tx_id: string }>(`SELECT tx_id FROM txs WHERE index_block_hash != '' ORDER BY cityHash64(tx_id) LIMIT 20000`)).map((r) => r.tx_id);
  const heavy = await q<{ principal: string; n: string }>(`SELECT principal, count() AS n FROM principal_txs WHERE principal NOT LIKE '%.%' GROUP BY principal ORDER BY n DESC LIMIT 1`);
  const principals = (await q<{ principal: string }>(`SELECT DISTINCT principal FROM principal_txs WHERE principal NOT LIKE '%.%' ORDER BY cityHash64(principal) LIMIT 500`)).map((r) => r.principal);
  const heights = (await q<{ h: string }>(`SELECT block_height AS h FROM block_canonical FINAL WHERE canonical = 1 ORDER BY cityHash64(index_block_hash) LIMIT 5000`)).map((r) => Number(r.h));
  const pairs = (await q<{ principal: string; tx_id: string }>(`SELECT principal, tx_id FROM principal_txs WHERE principal NOT LIKE '%.%' AND index_block_hash != '' AND bitAnd(roles, ${SINGLE_WITH_TRANSFERS_ROLES.any}) != 0 ORDER BY cityHash64(principal, tx_id) LIMIT 5000`)).map((r): [string, string] => [r.principal, r.tx_id]);
  const first = async (sql: string) => Object.values((await q<Record<string, string>>(sql))[0] ?? {})[0] ?? '';
  const heavyNftHolder = await first(`SELECT principal FROM principal_events WHERE kind = 'nft' AND principal NOT LIKE '%.%' GROUP BY principal ORDER BY count() DESC LIMIT 1`);
  const busiestToken = await first(`SELECT asset FROM ft_holders WHERE asset != 'stx' GROUP BY asset ORDER BY uniqExact(principal) DESC LIMIT 1`);
  const busiestContract = await first(`SELECT contract_identifier FROM contract_logs GROUP BY contract_identifier ORDER BY count() DESC LIMIT 1`);
  const bnsName = (await first(`SELECT name FROM bns_names LIMIT 1`)) || 'no-such-name.btc';
  const network = /^S[PM]/.test(principals[0] ?? 'SP') ? 'mainnet' : 'testnet';
  const heavyCount = Number(heavy[0]?.n ?? 0);
  // Anchored txs' microblock_sequence is 2^31-1 in the wire format (the generated chains have no forks).
  const deep = await q<{ h: string; s: string; i: string; mb: string }>(
    `SELECT block_height AS h, microblock_sequence AS s, tx_index AS i, microblock_hash AS mb FROM principal_txs FINAL WHERE principal = '${heavy[0]?.principal ?? ''}' AND index_block_hash != ''
     ORDER BY block_height DESC, microblock_sequence DESC, tx_index DESC LIMIT 1 OFFSET ${Math.max(0, Math.min(50_000, heavyCount - 1))}`,
  );
  const heavyDeepCursor = deep[0] ? `${deep[0].h}:${deep[0].mb ? deep[0].s : 2147483647}:${deep[0].i}` : '0:0:0';
  const targets: QueryTargets = { txIds, heavyPrincipal: heavy[0]?.principal ?? '', heavyCount, principals, heights, heavyNftHolder, busiestToken, busiestContract, bnsName, pairs, network, heavyDeepCursor };
  console.log(JSON.stringify(targets));
  await store.client.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
