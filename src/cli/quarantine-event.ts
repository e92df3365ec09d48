// `npm run quarantine-event -- --id <log id> [--reason "<why>"]`: sets aside one accepted event-log
// entry whose rows the store refuses (shown in /extended's event_log.error), so that processing can
// go on. The quarantine is recorded beside the log and in the entry's record; a running service
// picks it up within a second and resumes; a stopped one resumes at its next start (or re-run the
// import). An entry already processed, rejected or quarantined is refused.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { loadConfig } from '../config/config.ts';
import { configOrExit } from './startup.ts';
import { checkDataDirLayout } from '../ingest/layout-guard.ts';
import { eventLogDir } from '../ingest/pipeline.ts';
import { RecordStatus } from '../ingest/event-log/record.ts';
import { locateRecord, quarantineRecord, readStoppedAt } from '../ingest/event-log/quarantine.ts';
import { readCheckpoint } from '../ingest/processor/checkpoint.ts';

const USAGE = 'usage: npm run quarantine-event -- --id <event log id> [--reason "<why>"]';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { id: { type: 'string' }, reason: { type: 'string' } } });
  const id = Number(values.id);
  if (!values.id || !Number.isSafeInteger(id) || id < 1) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = configOrExit(() => loadConfig());
  // Another data layout is refused: whether an entry is processed is read from the processor's
  // checkpoint, which a re-index removes (quarantine after it, if the re-index stops at the entry).
  configOrExit(() => checkDataDirLayout(config));
  const { dataDir } = config;
  const logDir = eventLogDir(dataDir);
  const record = await locateRecord(logDir, id);
  if (!record) fail(`entry ${id} is not in the event log at ${logDir}`);
  if (record.status === RecordStatus.Rejected) fail(`entry ${id} (${record.path}) was rejected by the observer (${record.note}); it is never processed`);
  if (record.status === RecordStatus.Quarantined) fail(`entry ${id} (${record.path}) is already quarantined`);
  if (record.status !== RecordStatus.Accepted) fail(`entry ${id} (${record.path}) has an unknown status ${record.status}`);
  const committed = readCheckpoint(join(logDir, 'checkpoint.json')).committed;
  if (id <= committed) fail(`entry ${id} (${record.path}) is already processed (its rows are stored); only an entry processing has not passed can be quarantined`);
  const stopped = readStoppedAt(logDir);
  if (stopped && stopped.logId !== id) console.error(`note: processing stopped at entry ${stopped.logId}, not ${id}`);
  const entry = quarantineRecord(logDir, record, values.reason ?? 'quarantined by an operator', stopped?.logId === id ? stopped.message : undefined);
  console.log(`entry ${entry.id} (${entry.path}) quarantined: it stays in the event log and is never processed.`);
  console.log('A running service resumes processing within a second; otherwise it resumes at the next start (or re-run the import).');
}

function fail(message: string): never {
  console.error(`quarantine-event: ${message}`);
  process.exit(1);
}

main().catch((e) => {
  console.error('quarantine-event failed:', e instanceof Error ? e.message : e);
  process.exit(1);
});
