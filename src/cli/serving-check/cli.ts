// `npm run serving-check [-- --sample N]`: answers every tx, block and principal of the data
// directory (STACKS_API_DATA_DIR) twice — from ClickHouse alone and with the serving store — and
// lists every difference. Run it with the service stopped (the embedded store is one process's).
// Exit code 0: equal; 1: differences; 2: the store cannot be checked.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { loadConfig } from '../../config/config.ts';
import { configOrExit, configOrExitAsync } from '../startup.ts';
import { openStore } from '../../storage/client.ts';
import { checkDataDirLayout, checkStoreLayout } from '../../ingest/layout-guard.ts';
import { openServingStore, servingDir } from '../../serving/store.ts';
import { ServingView } from '../../serving/view.ts';
import { eventLogDir } from '../../ingest/pipeline.ts';
import { readCheckpoint } from '../../ingest/processor/checkpoint.ts';
import type { ApiContext } from '../../http/context.ts';
import { answer, differences } from './answers.ts';
import { checkUrls } from './urls.ts';
import { progress } from '../../ingest/progress.ts';

const CONCURRENCY = 6;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { sample: { type: 'string', default: '1000000' }, verbose: { type: 'boolean', default: false } } });
  const config = configOrExit(() => loadConfig());
  // Another data layout is refused: this version's read paths do not read its tables.
  configOrExit(() => checkDataDirLayout(config));
  const store = await openStore(config.store, config.dataDir);
  await configOrExitAsync(() => checkStoreLayout(store, config), () => store.client.close());
  const serving = openServingStore(servingDir(config.dataDir), { readOnly: true });
  const view = new ServingView(serving).load();
  const committed = readCheckpoint(join(eventLogDir(config.dataDir), 'checkpoint.json')).committed;
  view.followStoredThrough(() => committed);
  let failed = 0;
  try {
    if (!view.ready) {
      console.error(`serving store covers the event log through entry ${view.appliedLogId}, ClickHouse through ${committed}`);
      process.exitCode = 2;
      return;
    }
    const base = { store, config };
    const fromClickHouse: ApiContext = base;
    const withServing: ApiContext = { ...base, serving: { store: serving, view } };
    const urls = await checkUrls(store, Number(values.sample));
    const bar = progress('serving-check', urls.length, 'urls');
    let done = 0;
    const check = async (url: string) => {
      const [a, b] = [await answer(url, fromClickHouse), await answer(url, withServing)];
      const diffs = a.status !== b.status ? [`status ${a.status} != ${b.status}`] : differences(a.body, b.body);
      if (a.status >= 500 || b.status >= 500) diffs.push(`server error: ${JSON.stringify(a.status >= 500 ? a.body : b.body)}`);
      if (diffs.length) {
        failed++;
        if (failed <= 50 || values.verbose) console.log(`DIFF ${url}\n  ${diffs.join('\n  ')}`);
      }
      bar.update(++done);
    };
    // A few at a time: ClickHouse answers run on several read sessions side by side.
    const queue = [...urls];
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      for (let url = queue.shift(); url !== undefined; url = queue.shift()) await check(url);
    }));
    bar.finish();
    console.log(`${urls.length - failed} passed, ${failed} failed`);
    process.exitCode = failed ? 1 : 0;
  } finally {
    await serving.close();
    await store.client.close();
  }
}

await main();
