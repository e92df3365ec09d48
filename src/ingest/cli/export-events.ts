// `npm run export-events -- --file <tsv>`: writes the event log in the reference's export format
// (id, receive timestamp, path, payload; COPY text escaping), in id order.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/config.ts';
import { readRecords } from '../event-log/reader.ts';
import { eventLogDir } from '../pipeline.ts';
import { copyEscape, formatTimestamp } from '../tsv/copy-text.ts';
import { progress } from './progress.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { file: { type: 'string' } } });
  if (!values.file) {
    console.error('usage: npm run export-events -- --file <events.tsv>');
    process.exit(2);
  }
  const config = loadConfig();
  const dir = eventLogDir(config.dataDir);
  // Reading needs no lock: a record still being written (no trailer yet) ends the export.
  let total = 0;
  for await (const r of readRecords(dir, { withBody: false })) total = r.id;
  const out = createWriteStream(values.file);
  const bar = progress('export', total, 'entries');
  let n = 0;
  for await (const r of readRecords(dir)) {
    const line = `${r.id}\t${formatTimestamp(r.receivedAt)}\t${copyEscape(r.path)}\t${copyEscape(r.body.toString('utf8'))}\n`;
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
