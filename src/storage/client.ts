// One ClickHouse client for the whole process: embedded chdb in the data directory by default,
// a ClickHouse server when CLICKHOUSE_URL is set. Code above this layer does not know which.
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { StoreConfig } from '../config/config.ts';

export interface Store {
  client: ClickHouseClient;
  /** Set for a ClickHouse server cluster: DDL runs ON CLUSTER with Replicated engines. */
  cluster?: string;
  embedded: boolean;
  database: string;
}

export async function openStore(cfg: StoreConfig, dataDir: string): Promise<Store> {
  if (cfg.url) {
    const admin = createClient({ url: cfg.url, username: cfg.user, password: cfg.password });
    const onCluster = cfg.cluster ? ` ON CLUSTER \`${cfg.cluster}\`` : '';
    await admin.command({ query: `CREATE DATABASE IF NOT EXISTS \`${cfg.database}\`${onCluster}` });
    await admin.close();
    const client = createClient({
      url: cfg.url,
      username: cfg.user,
      password: cfg.password,
      database: cfg.database,
      clickhouse_settings: { date_time_output_format: 'iso', output_format_json_quote_64bit_integers: 1 },
    });
    return { client, cluster: cfg.cluster, embedded: false, database: cfg.database };
  }
  // chdb is loaded lazily so that a server deployment never needs its 500 MB binary in memory.
  const { createChdbConnection } = await import('chdb/connection');
  const path = resolve(dataDir, 'clickhouse');
  mkdirSync(path, { recursive: true });
  const client = createClient({ connection: createChdbConnection({ path }) } as Parameters<typeof createClient>[0]);
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS \`${cfg.database}\`` });
  await client.command({ query: `USE \`${cfg.database}\`` });
  // Session-wide, as the server client passes them per request: big integers travel as strings.
  await client.command({ query: 'SET output_format_json_quote_64bit_integers = 1, date_time_output_format = \'iso\'' });
  return { client, embedded: true, database: cfg.database };
}
