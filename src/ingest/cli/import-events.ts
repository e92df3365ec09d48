// `npm run import-events -- --file <tsv[.gz]> [--wipe]`: appends an event export to the event log
// and processes it, with progress. Killed part-way, the same command resumes where it stopped.
import { rmSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, basename } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/config.ts';
import { openStore } from '../../storage/client.ts';
import { migrate } from '../../storage/migrate.ts';
import { lockDataDir } from '../data-lock.ts';
import { openPipeline, eventLogDir } from '../pipeline.ts';
import type { AppendInput } from '../event-log/writer.ts';
import { readTsvRows, readTsvRowsRaw, scanTsv } from '../tsv/read-tsv.ts';
import { parseTimestamp } from '../tsv/copy-text.ts';
import { progress } from './progress.ts';
import { writeCheckpoint } from '../processor/checkpoint.ts';

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
  const { values } = parseArgs({ options: { file: { type: 'string' }, wipe: { type: 'boolean', default: false }, 'keep-duplicate-ids': { type: 'boolean', default: false }, 'stats-json': { type: 'string' } } });
  if (!values.file) {
    console.error('usage: npm run import-events -- --file <events.tsv[.gz]> [--wipe] [--keep-duplicate-ids]');
    process.exit(2);
  }
  const file = values.file;
  if (!existsSync(file)) throw new Error(`no such file: ${file}`);
  const config = loadConfig();
  if (values.wipe && !config.store.url) {
    rmSync(join(config.dataDir, 'clickhouse'), { recursive: true, force: true });
  }
  if (values.wipe) rmSync(eventLogDir(config.dataDir), { recursive: true, force: true });
  const unlock = config.store.url ? () => {} : lockDataDir(config.dataDir);
  const store = await openStore(config.store, config.dataDir);
  if (values.wipe && config.store.url) {
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

  const appendStart = performance.now();
  const appendBar = progress('append', total, 'rows');
  let index = 0;
  let appended = resumeRows;
  let chunk: AppendInput[] = [];
  let chunkBytes = 0;
  const flushChunk = async () => {
    if (chunk.length === 0) return;
    await pipeline.writer.appendMany(chunk);
    appended += chunk.length;
    chunk = [];
    chunkBytes = 0;
    saveState(stateFile, { ...identity, rows: appended, logId: pipeline.writer.durableId });
    appendBar.update(appended);
  };
  // Sorted exports (the usual case, and every large one) stream as bytes; others are sorted in memory.
  const rows = sorted && !values['keep-duplicate-ids']
    ? readTsvRowsRaw(file)
    : (async function* () {
        for await (const r of readTsvRows(file, { keepDuplicateIds: values['keep-duplicate-ids'] })) yield { ...r, payload: Buffer.from(r.payload, 'utf8') };
      })();
  for await (const row of rows) {
    if (index++ < resumeRows) continue;
    chunk.push({ path: row.path, body: row.payload, receivedAt: parseTimestamp(row.timestamp) });
    chunkBytes += row.payload.length;
    if (chunk.length >= APPEND_CHUNK_ROWS || chunkBytes >= APPEND_CHUNK_BYTES) await flushChunk();
  }
  await flushChunk();
  appendBar.finish();
  const appendMs = performance.now() - appendStart;

  const target = pipeline.writer.durableId;
  const processBar = progress('process', target, 'entries');
  for (;;) {
    await pipeline.processor.kick();
    processBar.update(pipeline.processor.committedId);
    if (pipeline.processor.error || pipeline.processor.committedId >= target) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  processBar.finish();
  const err = pipeline.processor.error;
  const stats = pipeline.processor.stats;
  if (values['stats-json']) {
    const rss = process.resourceUsage().maxRSS * 1024;
    writeFileSync(values['stats-json'], JSON.stringify({ ...stats, appendMs, wallMs: performance.now() - appendStart, maxRssBytes: rss, fileBytes: statSync(file).size }));
  }
  console.error(`processed ${stats.entries} entries (${stats.rejected} rejected) in ${stats.batches} batches: decode wait ${(stats.decodeMs / 1000).toFixed(1)} s, apply ${(stats.applyMs / 1000).toFixed(1)} s, insert ${(stats.insertMs / 1000).toFixed(1)} s`);
  unsubscribe();
  await pipeline.close();
  await store.client.close();
  unlock();
  if (err) {
    console.error(`processing stopped at event log entry ${err.logId} (${err.path}): ${err.message}`);
    process.exit(1);
  }
}

function saveState(file: string, s: ImportState): void {
  // Same durability as the checkpoint: a temp file, fsync, rename.
  writeCheckpoint(file, s as never);
}

main().catch((e) => {
  console.error('import failed:', e instanceof Error ? e.message : e);
  process.exit(1);
});
