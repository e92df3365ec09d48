// `npm run rebuild-serving`: rebuilds the serving store of the data directory (STACKS_API_DATA_DIR)
// from the event log, with progress. The service must be stopped. ClickHouse is not written: the
// log's entries are decoded and applied again and only the serving store's writes are kept (the
// same path the service takes when its serving store is behind ClickHouse at start).
import { rmSync } from 'node:fs';
import { loadConfig } from '../config/config.ts';
import { configOrExit, configOrExitAsync } from './startup.ts';
import { openStore } from '../storage/client.ts';
import { checkStoreLayout, openDataDir } from '../ingest/layout-guard.ts';
import { openPipeline } from '../ingest/pipeline.ts';
import { servingDir } from '../serving/store.ts';
import { dirBytes } from '../serving/size.ts';

async function main(): Promise<void> {
  const config = configOrExit(() => loadConfig());
  // Another data layout is refused (its tables are not what the processor reads back).
  const { unlock } = configOrExit(() => openDataDir(config, { lock: true }));
  const store = await openStore(config.store, config.dataDir);
  await configOrExitAsync(() => checkStoreLayout(store, config), async () => {
    await store.client.close();
    unlock();
  });
  try {
    rmSync(servingDir(config.dataDir), { recursive: true, force: true });
    const t0 = performance.now();
    const pipeline = await openPipeline(store, config.dataDir, { live: false });
    const secs = (performance.now() - t0) / 1000;
    const applied = pipeline.serving?.view.appliedLogId ?? 0;
    const error = pipeline.processor.error;
    await pipeline.close();
    if (error) throw new Error(`rebuilding stopped at event log entry ${error.logId}: ${error.message}`);
    const mb = dirBytes(servingDir(config.dataDir)) / 1e6;
    console.log(`serving store rebuilt through event log entry ${applied} in ${secs.toFixed(1)} s (${mb.toFixed(1)} MB)`);
  } finally {
    await store.client.close();
    unlock();
  }
}

main().catch((e) => {
  console.error('rebuild-serving:', (e as Error).message);
  process.exit(1);
});
