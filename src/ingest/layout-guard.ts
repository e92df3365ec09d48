// The layout check of every command that opens a data directory: a directory (or the ClickHouse
// tables it is served from) of another data layout is refused before anything is written, with one
// line naming the command that converts it — `configuration error: <VARIABLE>: …`, exit code 2, as
// the other start-up checks (src/cli/startup.ts).
import { mkdirSync } from 'node:fs';
import { ConfigError, type Config } from '../config/config.ts';
import type { Store } from '../storage/client.ts';
import { loadMigrations } from '../storage/migrate.ts';
import { appliedMigrations, describeForeign, schemaLayout } from '../storage/schema-layout.ts';
import { DATA_LAYOUT, detectDataDirLayout, hasEventLog, LayoutMarkerError, writeLayoutMarker, type DataDirLayout } from './data-layout.ts';
import { lockDataDir } from './data-lock.ts';

/** What a re-index costs, measured: the 100k-tx generated testnet log (`npm run gen -- --txs 100000
 *  --seed 7 --network testnet`) re-indexed in 121 CPU-s at c41a6aa+; on two cores kept ~165% busy,
 *  as an import keeps them, that is ~73 s per 100k txs (the 1M-tx import of issue 32: 541 s). */
export const REINDEX_MINUTES_PER_MILLION_TXS = 12;

type LayoutConfig = Pick<Config, 'dataDir' | 'followLog' | 'store' | 'mode'>;

const REINDEX = '`npm run reindex`';
const COST = `(about ${REINDEX_MINUTES_PER_MILLION_TXS} minutes per million txs)`;

/** How a directory ('dir') or a server database ('server') of another layout is brought to this one. */
function remedy(config: LayoutConfig, what: 'dir' | 'server', layout: number | 'unknown'): string {
  let reindex: string;
  if (what === 'server') {
    reindex = config.mode === 'readonly'
      ? `re-index it with ${REINDEX} where its writer's data directory is ${COST}`
      : `re-index it from the event log in ${config.dataDir} with ${REINDEX} ${COST}`;
  } else if (config.followLog) {
    reindex = `re-index it with ${REINDEX} (a follower's stores are removed, and rebuilt from STACKS_API_FOLLOW_LOG at its next start)`;
  } else reindex = `re-index it from its own event log with ${REINDEX} ${COST}`;
  return layout === 1 ? reindex : `run the version that wrote it, or ${reindex}`;
}

/** The directory's layout (reads only); a malformed marker is a ConfigError naming its file. */
export function dataDirLayout(dir: string): DataDirLayout {
  try {
    return detectDataDirLayout(dir);
  } catch (e) {
    if (e instanceof LayoutMarkerError) throw new ConfigError('STACKS_API_DATA_DIR', e.message);
    throw e;
  }
}

/** Reads only. Throws ConfigError unless the directory is of this layout or new. */
export function checkDataDirLayout(config: LayoutConfig): DataDirLayout {
  const dir = config.dataDir;
  const layout = dataDirLayout(dir);
  if (layout.kind === 'reindex-interrupted') throw new ConfigError('STACKS_API_DATA_DIR', `${dir} is part-way through a re-index to layout ${DATA_LAYOUT} (it was stopped): finish it with ${REINDEX}`);
  if (layout.kind !== 'other') return layout;
  const head = `${dir} has data layout ${layout.layout}; this version reads layout ${DATA_LAYOUT}`;
  // Without a log of its own (and not a follower) there is nothing to rebuild its stores from.
  if (!config.followLog && !hasEventLog(dir)) throw new ConfigError('STACKS_API_DATA_DIR', `${head}, and it has no event log to re-index from: start on a new data directory`);
  throw new ConfigError('STACKS_API_DATA_DIR', `${head}: ${remedy(config, 'dir', layout.layout)}`);
}

/** Throws ConfigError when the store's schema_migrations names a migration this version does not
 *  have: tables made by another layout (embedded or a shared server database). Reads only. */
export async function checkStoreLayout(store: Store, config: LayoutConfig): Promise<void> {
  const layout = schemaLayout(await appliedMigrations(store.client), loadMigrations().map((m) => m.name));
  if (layout.kind === 'current') return;
  const of = layout.kind === 'layout-1' ? 'data layout 1' : 'another version';
  const lists = `schema_migrations lists ${describeForeign(layout.foreign)}, which this version does not have`;
  const version = layout.kind === 'layout-1' ? 1 : 'unknown';
  if (store.embedded) throw new ConfigError('STACKS_API_DATA_DIR', `${config.dataDir} holds ClickHouse tables of ${of} (${lists}); this version reads layout ${DATA_LAYOUT}: ${remedy(config, 'dir', version)}`);
  const host = config.store.url ? new URL(config.store.url).host : '?';
  throw new ConfigError('CLICKHOUSE_DATABASE', `${store.database} on ${host} has tables of ${of} (${lists}); this version reads layout ${DATA_LAYOUT}: ${remedy(config, 'server', version)}`);
}

/**
 * For a command that writes the data directory: refuses another layout (reading only), then takes
 * the lock (when asked), checks again under it (a re-index may have begun meanwhile) and marks a
 * new directory as this layout before anything else is written to it.
 */
export function openDataDir(config: LayoutConfig, opts: { lock: boolean }): { layout: DataDirLayout; unlock: () => void } {
  checkDataDirLayout(config);
  const unlock = opts.lock ? lockDataDir(config.dataDir) : () => {};
  let layout: DataDirLayout;
  try {
    layout = checkDataDirLayout(config);
  } catch (e) {
    unlock();
    throw e;
  }
  if (layout.kind === 'new') {
    mkdirSync(config.dataDir, { recursive: true });
    writeLayoutMarker(config.dataDir, { layout: DATA_LAYOUT });
  }
  return { layout, unlock };
}
