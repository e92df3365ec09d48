// `npm run import-events -- --file <tsv[.gz]> [--wipe]`: appends an event export to the event log
// and processes it, with progress. Killed part-way, the same command resumes where it stopped.
// `--wipe-db` is the reference's name for --wipe, and its `--force` is accepted (this import never
// refuses a store that holds data). A bad row names the file and line; entries the decoder rejects
// are listed with their reason.
import { rmSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, basename } from 'node:path';
import { parseArgs } from 'node:util';
import { configOrExit, configOrExitAsync, loadStartupConfig } from './startup.ts';
import { openStore, type Store } from '../storage/client.ts';
import { migrate } from '../storage/migrate.ts';
import { checkStoreLayout, openDataDir } from '../ingest/layout-guard.ts';
import { openPipeline, eventLogDir } from '../ingest/pipeline.ts';
import type { AppendInput } from '../ingest/event-log/writer.ts';
import { readTsvRows, readTsvRowsRaw, rowError, scanTsv } from '../ingest/tsv/read-tsv.ts';
import { QUARANTINED_PATH, unwrapQuarantined } from '../ingest/tsv/quarantined-row.ts';
import { RecordStatus } from '../ingest/event-log/record.ts';
import { recordQuarantine, writeStoppedAt, type QuarantineEntry } from '../ingest/event-log/quarantine.ts';
import { parseTimestamp } from '../ingest/tsv/copy-text.ts';
import { progress } from '../ingest/progress.ts';
import { describeStats, mergeAggregatesLine, processWithProgress } from './process-log.ts';
import { writeCheckpoint } from '../ingest/processor/checkpoint.ts';
import { countersSince, describeCounters, readEngineCounters } from '../storage/engine-counters.ts';

interface ImportState {
  file: string;
  size: number;
  /** Source rows appended as of log id `logId`. */
  rows: number;
  logId: number;
}

// One write and one fsync per chunk of rows.
const APPEND_CHUNK_ROWS = 2000;
const APPEND_CHUNK_BYTES = 64 * 1024 * 1024;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      file: { type: 'string' },
      wipe: { type: 'boolean', default: false },
      'wipe-db': { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      'keep-duplicate-ids': { type: 'boolean', default: false },
      'stats-json': { type: 'string' },
    },
  });
  if (!values.file) {
    console.error('usage: npm run import-events -- --file <events.tsv[.gz]> [--wipe | --wipe-db] [--force] [--keep-duplicate-ids]');
    process.exit(2);
  }
  const file = values.file;
  if (!existsSync(file)) throw new Error(`no such file: ${file}`);
  const wipe = values.wipe || values['wipe-db'];
  const { config } = configOrExit(() => loadStartupConfig());
  // A data directory of another layout is refused, --wipe or not: only `npm run reindex` converts
  // one (a wipe here would leave a server's tables of the old layout, and its serving store).
  const { unlock } = configOrExit(() => openDataDir(config, { lock: true }));
  if (wipe && !config.store.url) {
    rmSync(join(config.dataDir, 'clickhouse'), { recursive: true, force: true });
  }
  if (wipe) rmSync(eventLogDir(config.dataDir), { recursive: true, force: true });
  const store = await openStore(config.store, config.dataDir);
  await configOrExitAsync(() => checkStoreLayout(store, config), async () => {
    await store.client.close();
    unlock();
  });
  if (wipe && config.store.url) {
    // A server store is emptied table by table (the database may hold other things).
    const tables = await (await store.client.query({ query: 'SHOW TABLES', format: 'JSONEachRow' })).json<{ name: string }>();
    for (const t of tables) await store.client.command({ query: `TRUNCATE TABLE IF EXISTS ${t.name}` });
  }
  await migrate(store);
  const pipeline = await openPipeline(store, config.dataDir, { live: false, mempoolCleanupMs: config.mempoolCleanupMs, servingStore: config.servingStore });
  const unsubscribe = pipeline.writer.onDurable(() => void pipeline.processor.kick());
  const stateFile = join(pipeline.writer.dir, 'import.json');
  const identity = { file: basename(file), size: statSync(file).size };
  let resumeRows = 0;
  const saved = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as ImportState) : undefined;
  if (saved && saved.file === identity.file && saved.size === identity.size) {
    // Rows appended after the last saved state came from this same import (the data dir is locked).
    resumeRows = saved.rows + (pipeline.writer.durableId - saved.logId);
  } else {
    // Saved before the first append, so a crash in the middle of the first chunk is resumable too.
    saveState(stateFile, { ...identity, rows: 0, logId: pipeline.writer.durableId });
  }
  const { rows: total, sorted } = await scanTsv(file);
  if (resumeRows > 0) console.error(`resuming: ${resumeRows} rows of ${basename(file)} are already in the event log`);

  const countersBefore = await readEngineCounters(store);
  const appendStart = performance.now();
  const appendBar = progress('append', total, 'rows');
  let index = 0;
  let appended = resumeRows;
  let chunk: AppendInput[] = [];
  let chunkBytes = 0;
  // Source line of each entry appended by this run (log id - firstId), to name a rejected one.
  const firstId = pipeline.writer.durableId + 1;
  const lineOf: number[] = [];
  const flushChunk = async () => {
    if (chunk.length === 0) return;
    const ids = await pipeline.writer.appendMany(chunk);
    // A quarantined entry's record goes into the journal with the id it has now.
    chunk.forEach((input, i) => {
      if (input.status === RecordStatus.Quarantined) recordQuarantine(pipeline.writer.dir, { ...quarantines.get(input)!, id: ids[i] });
    });
    appended += chunk.length;
    chunk = [];
    chunkBytes = 0;
    saveState(stateFile, { ...identity, rows: appended, logId: pipeline.writer.durableId });
    appendBar.update(appended);
  };
  const quarantines = new Map<AppendInput, Omit<QuarantineEntry, 'id'>>();
  // Sorted exports (the usual case, and every large one) stream as bytes; others are sorted in memory.
  const rows = sorted && !values['keep-duplicate-ids']
    ? readTsvRowsRaw(file)
    : (async function* () {
        for await (const r of readTsvRows(file, { keepDuplicateIds: values['keep-duplicate-ids'] })) yield { ...r, payload: Buffer.from(r.payload, 'utf8') };
      })();
  for await (const row of rows) {
    if (index++ < resumeRows) continue;
    const input: AppendInput = { path: row.path, body: row.payload, receivedAt: parseTimestamp(row.timestamp) };
    if (row.path === QUARANTINED_PATH) {
      let q;
      try {
        q = unwrapQuarantined(row.payload);
      } catch (e) {
        throw rowError(file, row.line, (e as Error).message);
      }
      Object.assign(input, { path: q.path, body: q.body, status: RecordStatus.Quarantined, note: q.reason });
      quarantines.set(input, { path: q.path, reason: q.reason, ...(q.error ? { error: q.error } : {}), at: q.at ?? new Date().toISOString() });
    }
    chunk.push(input);
    lineOf.push(row.line);
    chunkBytes += row.payload.length;
    if (chunk.length >= APPEND_CHUNK_ROWS || chunkBytes >= APPEND_CHUNK_BYTES) await flushChunk();
  }
  await flushChunk();
  appendBar.finish();
  const appendMs = performance.now() - appendStart;

  await processWithProgress(pipeline.processor, pipeline.writer.durableId, 'process');
  const err = pipeline.processor.error;
  const stats = pipeline.processor.stats;
  const rejected = stats.rejected > 0 ? await rejectedSince(store, firstId) : [];
  const wallMs = performance.now() - appendStart;
  const engine = countersSince(countersBefore, await readEngineCounters(store));
  if (values['stats-json']) {
    const rss = process.resourceUsage().maxRSS * 1024;
    writeFileSync(values['stats-json'], JSON.stringify({ ...stats, appendMs, wallMs, maxRssBytes: rss, fileBytes: statSync(file).size, engine }));
  }
  console.error(describeStats(stats));
  if (!config.store.url) console.error(describeCounters(engine));
  for (const r of rejected) {
    const line = lineOf[r.log_id - firstId];
    console.error(`rejected: ${line ? `${file}:${line}, ` : ''}event log entry ${r.log_id} (${r.path}): ${r.reason}`);
  }
  if (stats.rejected > rejected.length) console.error(`… and ${stats.rejected - rejected.length} more rejected entries (the rejected_events table lists them all)`);
  if (!err) console.error(await mergeAggregatesLine(store));
  // The log this import processed is compressed now, its last segment too (the next append starts
  // a new one), not in the background of the next start.
  pipeline.writer.seal();
  await pipeline.compactor.compressDue();
  unsubscribe();
  await pipeline.close();
  await store.client.close();
  unlock();
  if (err) {
    const line = lineOf[err.logId - firstId];
    writeStoppedAt(eventLogDir(config.dataDir), err);
    console.error(`processing stopped at event log entry ${err.logId} (${err.path}${line ? `, ${file}:${line}` : ''}): ${err.message}`);
    console.error(`to set it aside and go on: npm run quarantine-event -- --id ${err.logId} --reason "…", then run this import again`);
    process.exit(1);
  }
  writeStoppedAt(eventLogDir(config.dataDir), null);
}

/** Entries of this run the decoder rejected (the first few), with their reasons. */
async function rejectedSince(store: Store, firstId: number): Promise<Array<{ log_id: number; path: string; reason: string }>> {
  const rs = await store.client.query({ query: 'SELECT log_id, path, reason FROM rejected_events FINAL WHERE log_id >= {f:UInt64} ORDER BY log_id LIMIT 20', query_params: { f: firstId }, format: 'JSONEachRow' });
  return (await rs.json<{ log_id: string; path: string; reason: string }>()).map((r) => ({ ...r, log_id: Number(r.log_id) }));
}

function saveState(file: string, s: ImportState): void {
  // Same durability as the checkpoint: a temp file, fsync, rename.
  writeCheckpoint(file, s as never);
}

main().catch((e) => {
  console.error('import failed:', e instanceof Error ? e.message : e);
  process.exit(1);
});
