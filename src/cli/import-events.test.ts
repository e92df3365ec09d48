// import-events tells what went wrong and where: file and line of a bad row, the file of a bad
// gzip, the reason of each rejected entry; it takes the reference's --wipe-db and --force.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED, runScript, tempDataDir } from '../testing/service.ts';

const importEvents = (dataDir: string, args: string[]) => runScript('src/cli/import-events.ts', args, { STACKS_API_DATA_DIR: dataDir });
const fixtureLines = () => readFileSync(join(SHARED, 'fixtures', 'fuzzed-transactions-1.tsv'), 'utf8').split('\n').filter((l) => l.trim());

test('a row that is not an event names the file and the line', { timeout: 120_000 }, async () => {
  const dir = tempDataDir();
  const file = join(dir, 'events.tsv');
  const lines = fixtureLines().slice(0, 3);
  writeFileSync(file, Buffer.concat([Buffer.from(`${lines.join('\n')}\n`), Buffer.from([0x00, 0xff, 0x13, 0x37, 0x0a])]));
  const r = await importEvents(tempDataDir(), ['--file', file]);
  assert.equal(r.code, 1, r.output);
  assert.match(r.output, new RegExp(`${file.replace(/[.]/g, '\\.')}:4: not a 4-column event row \\(id, timestamp, path, payload\\): "\\\\u0000\\\\xff`));
});

test('a file that is not gzip, though named .gz, is named in the error', { timeout: 120_000 }, async () => {
  const file = join(tempDataDir(), 'events.tsv.gz');
  writeFileSync(file, `${fixtureLines().slice(0, 3).join('\n')}\n`);
  const r = await importEvents(tempDataDir(), ['--file', file]);
  assert.equal(r.code, 1, r.output);
  assert.ok(r.output.includes(`${file}: not a valid gzip file (incorrect header check)`), r.output);
});

test('a rejected entry is listed with its line and reason; --wipe-db and --force are accepted', { timeout: 180_000 }, async () => {
  const dir = tempDataDir();
  const file = join(tempDataDir(), 'events.tsv');
  const lines = fixtureLines();
  const block = lines.findIndex((l) => l.split('\t')[2] === '/new_block');
  const cols = lines[block].split('\t');
  lines[block] = [...cols.slice(0, 3), cols[3].replace(/"block_height":\s*\d+/, '"block_height":"high"')].join('\t');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const r = await importEvents(dir, ['--file', file, '--wipe-db', '--force']);
  assert.equal(r.code, 0, r.output);
  assert.match(r.output, /\(1 rejected\)/);
  assert.ok(r.output.includes(`rejected: ${file}:${block + 1}, event log entry ${block + 1} (/new_block): body of /new_block does not match its schema: body/block_height must be integer`), r.output);
  // --wipe-db starts over: the same import again gives the same log, not twice the entries.
  const again = await importEvents(dir, ['--file', file, '--wipe-db']);
  assert.equal(again.code, 0, again.output);
  assert.match(again.output, new RegExp(`processed ${lines.length} entries \\(1 rejected\\)`));
});

test('the processing stage prints its progress while it runs, not only once it is done', { timeout: 180_000 }, async () => {
  const r = await runScript('src/cli/import-events.ts', ['--file', join(SHARED, 'fixtures', 'fuzzed-transactions-1.tsv')], { STACKS_API_DATA_DIR: tempDataDir(), STACKS_API_PROGRESS_MS: '1' });
  assert.equal(r.code, 0, r.output);
  const lines = [...r.output.matchAll(/^process: (\d+)\/(\d+) entries \([\d.]+%\) \d+ entries\/s, ETA \S+$/gm)].map((m) => [Number(m[1]), Number(m[2])]);
  const total = lines.at(-1)?.[1] ?? 0;
  assert.ok(total > 0 && lines.at(-1)?.[0] === total, r.output);
  assert.ok(lines.some(([done]) => done < total), `no progress line before the end:\n${lines.join('\n')}`);
});
