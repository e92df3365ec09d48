// `npm run export-events -- --file <tsv>`: writes the event log in the reference's export format
// (id, receive timestamp, path, payload; COPY text escaping), in id order. A quarantined entry is
// written as a /_quarantined row carrying its quarantine.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/config.ts';
import { readRecords } from '../ingest/event-log/reader.ts';
import { eventLogDir } from '../ingest/pipeline.ts';
import { copyEscape, formatTimestamp } from '../ingest/tsv/copy-text.ts';
import { progress } from '../ingest/progress.ts';
import { RecordStatus } from '../ingest/event-log/record.ts';
import { readQuarantine } from '../ingest/event-log/quarantine.ts';
import { QUARANTINED_PATH, wrapQuarantined } from '../ingest/tsv/quarantined-row.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { file: { type: 'string' } } });
  if (!values.file) {
    console.error('usage: npm run export-events -- --file <events.tsv>');
    process.exit(2);
  }
  const config = loadConfig();
  // No layout check: the event log's format is the same in every data layout, and this only reads
  // it, so the log of an earlier layout can be exported (e.g. to import elsewhere) as it is.
  const dir = eventLogDir(config.dataDir);
  // Reading needs no lock: a record still being written (no trailer yet) ends the export.
  let total = 0;
  for await (const r of readRecords(dir, { withBody: false })) total = r.id;
  const out = createWriteStream(values.file);
  const bar = progress('export', total, 'entries');
  let n = 0;
  // A quarantined entry keeps its quarantine through export and import (tsv/quarantined-row.ts).
  const quarantined = new Map(readQuarantine(dir).map((q) => [q.id, q]));
  for await (const r of readRecords(dir)) {
    const q = r.status === RecordStatus.Quarantined ? quarantined.get(r.id) : undefined;
    const [path, body] = r.status === RecordStatus.Quarantined ? [QUARANTINED_PATH, wrapQuarantined({ path: r.path, body: r.body, reason: q?.reason ?? 'quarantined', error: q?.error, at: q?.at })] : [r.path, r.body];
    const line = `${r.id}\t${formatTimestamp(r.receivedAt)}\t${copyEscape(path)}\t${copyEscape(body.toString('utf8'))}\n`;
    if (!out.write(line)) await once(out, 'drain');
    bar.update(++n);
  }
  out.end();
  await once(out, 'finish');
  bar.finish();
}

main().catch((e) => {
  console.error('export failed:', e instanceof Error ? e.message : e);
  process.exit(1);
});
