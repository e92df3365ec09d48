// `npm run reindex [-- --force]`: re-indexes the data directory (STACKS_API_DATA_DIR) from its own
// event log into this version's data layout, with progress. Every derived store is removed (the
// embedded engine's tables, or this project's tables in a ClickHouse server database; the serving
// store; the processor's checkpoint), the current migrations are applied, and the log is processed
// again. The event log is only read. The service must be stopped (the data directory is locked).
//
// Resumable: the marker (src/ingest/data-layout.ts) says how far it got. Stopped while removing
// ({"reindex": "wiping"}), the directory is refused by every command until this one is run again,
// which starts the removal over. Stopped while processing ({"reindex": "processing"}), the stores
// are layout 2 and hold a prefix of the log under the processor's checkpoint: running this again
// (or `npm start`) resumes processing from that checkpoint. Only a finished run writes {"layout": 2}.
// A directory already in layout 2 is left alone unless --force is given.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, type Config } from '../config/config.ts';
import { configOrExit, loadStartupConfig } from './startup.ts';
import { openStore, type Store } from '../storage/client.ts';
import { loadMigrations, migrate } from '../storage/migrate.ts';
import { dropProjectTables } from '../storage/drop-project-tables.ts';
import { appliedMigrations, schemaLayout } from '../storage/schema-layout.ts';
import { DATA_LAYOUT, hasEventLog, writeLayoutMarker } from '../ingest/data-layout.ts';
import { dataDirLayout } from '../ingest/layout-guard.ts';
import { lockDataDir } from '../ingest/data-lock.ts';
import { eventLogDir, openPipeline } from '../ingest/pipeline.ts';
import { writeStoppedAt } from '../ingest/event-log/quarantine.ts';
import { readCheckpoint } from '../ingest/processor/checkpoint.ts';
import { removeDerivedStores } from './derived-stores.ts';
import { openReadOnlyLog } from './read-only-log.ts';
import { describeStats, mergeAggregatesLine, processWithProgress } from './process-log.ts';

const USAGE = 'usage: npm run reindex [-- --force]   (--force: re-index a data directory that is already layout 2)';

async function main(): Promise<void> {
  const force = parseOptions();
  const { config } = configOrExit(() => loadStartupConfig());
  const dir = config.dataDir;
  if (config.store.url && config.mode === 'readonly' && !config.followLog) {
    configOrExit(() => {
      throw new ConfigError('STACKS_API_MODE', `a read-only process on a ClickHouse server keeps nothing in ${dir}: run \`npm run reindex\` where the writer's data directory is`);
    });
  }
  const follower = !!config.followLog;
  const before = configOrExit(() => dataDirLayout(dir));
  if (before.kind === 'new') {
    console.log(`nothing to re-index: ${dir} is a new data directory (layout ${DATA_LAYOUT})`);
    return;
  }
  // A follower's stores come from the followed log; anyone else's only from their own.
  if (!follower && !hasEventLog(dir)) throw new Error(`${dir} has no event log to re-index from`);

  const unlock = lockDataDir(dir);
  // Opened when first needed, and closed before the embedded engine's files are removed.
  const opened: { store?: Store } = {};
  const open = async () => (opened.store ??= await openStore(config.store, dir));
  const close = async () => {
    await opened.store?.client.close();
    opened.store = undefined;
  };
  try {
    const layout = configOrExit(() => dataDirLayout(dir));
    if (layout.kind === 'current' && !layout.reindex && !force) {
      if (follower || (await tablesAreCurrent(await open()))) {
        console.log(`${dir} is already data layout ${DATA_LAYOUT}: nothing to re-index (--force re-indexes it anyway)`);
        return;
      }
    }
    const processing = layout.kind === 'current' && layout.reindex === 'processing' && !force;
    if (!processing) {
      await close();
      await wipe(config, follower, open);
    }
    if (follower) {
      writeLayoutMarker(dir, { layout: DATA_LAYOUT });
      console.log(`${dir}: its stores are removed; the follower rebuilds them from STACKS_API_FOLLOW_LOG (${config.followLog}) at its next start`);
      return;
    }
    const ok = await processLog(config, await open());
    if (ok) {
      writeLayoutMarker(dir, { layout: DATA_LAYOUT });
      console.log(`${dir} is re-indexed: data layout ${DATA_LAYOUT}`);
    } else process.exitCode = 1;
  } finally {
    await close();
    unlock();
  }
}

function parseOptions(): boolean {
  try {
    return !!parseArgs({ options: { force: { type: 'boolean', default: false } } }).values.force;
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

async function tablesAreCurrent(store: Store): Promise<boolean> {
  return schemaLayout(await appliedMigrations(store.client), loadMigrations().map((m) => m.name)).kind === 'current';
}

/**
 * Marks the directory as being wiped first, so that a run stopped anywhere in here is refused by
 * every command until this one finishes; then removes the derived stores (checkpoints first), drops
 * this project's tables from a server database and applies the current migrations.
 */
async function wipe(config: Config, follower: boolean, open: () => Promise<Store>): Promise<void> {
  const dir = config.dataDir;
  writeLayoutMarker(dir, { layout: DATA_LAYOUT, reindex: 'wiping' });
  removeDerivedStores(dir, { embedded: !config.store.url });
  console.error(`removed the derived stores of ${dir} (the event log is kept)`);
  if (follower) return; // a follower's tables, if any, are the writer's (server) or were in clickhouse/
  const store = await open();
  if (config.store.url) {
    const dropped = await dropProjectTables(store);
    console.error(`dropped ${dropped.length} tables and views of this project from database ${store.database}`);
  }
  await migrate(store);
  writeLayoutMarker(dir, { layout: DATA_LAYOUT, reindex: 'processing' });
}

/** Processes the whole log (from the checkpoint a stopped run left) with progress; false when
 *  processing stopped at an entry the store refuses. */
async function processLog(config: Config, store: Store): Promise<boolean> {
  // Applies nothing after wipe(); on a resumed run it checks the tables are still this layout's.
  await migrate(store);
  const log = await openReadOnlyLog(eventLogDir(config.dataDir));
  // Where a stopped run left the processor (opening the pipeline redoes its interrupted batch).
  const from = readCheckpoint(join(log.dir, 'checkpoint.json')).committed;
  console.error(`re-indexing ${config.dataDir} from its event log: ${log.durableId} entries${from > 0 ? `, resuming after entry ${from}` : ''}`);
  const pipeline = await openPipeline(store, config.dataDir, { live: false, log, mempoolCleanupMs: config.mempoolCleanupMs, servingStore: config.servingStore });
  const { processor } = pipeline;
  try {
    await processWithProgress(processor, log.durableId, 'reindex');
    console.error(describeStats(processor.stats));
    if (!processor.error) console.error(await mergeAggregatesLine(store));
  } finally {
    await pipeline.close();
  }
  const err = processor.error;
  writeStoppedAt(log.dir, err);
  if (!err) return true;
  console.error(`processing stopped at event log entry ${err.logId} (${err.path}): ${err.message}`);
  console.error(`to set it aside and go on: npm run quarantine-event -- --id ${err.logId} --reason "…", then run \`npm run reindex\` again`);
  return false;
}

main().catch((e) => {
  console.error(`reindex: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
});
