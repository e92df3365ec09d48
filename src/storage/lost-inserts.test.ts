import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDataDir } from '../testing/service.ts';
import { cancelLostInsertRecords } from './lost-inserts.ts';

/** Runs statements in a process of its own: the engine opens one directory per process. */
function engine(dir: string, statements: string[]): string {
  const script = `import { Session } from 'chdb'; const s = new Session(${JSON.stringify(dir)}); let out = '';
    for (const q of ${JSON.stringify(statements)}) out = s.query(q, 'CSV'); process.stdout.write(out); s.close();`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
}

const insert = (token: string, values: string) => `INSERT INTO d.t SETTINGS insert_deduplication_token = '${token}' VALUES ${values}`;

function tableDir(dir: string): string {
  const uuid = /UUID '([0-9a-f-]{36})'/.exec(readFileSync(join(dir, 'metadata', 'd', 't.sql'), 'utf8'))![1];
  return join(dir, 'store', uuid.slice(0, 3), uuid);
}

function recordedParts(dir: string): string[] {
  const logs = join(tableDir(dir), 'deduplication_logs');
  return readdirSync(logs).flatMap((f) => readFileSync(join(logs, f), 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t')[1]));
}

test("an insert whose record outlived its part (a crash between the two) is stored by its redo", () => {
  const dir = tempDataDir();
  engine(dir, [
    'CREATE DATABASE d',
    'CREATE TABLE d.t (k UInt32) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 100',
    'SYSTEM STOP MERGES d.t',
    insert('a', '(1),(2),(3)'),
    insert('b', '(4),(5)'),
  ]);
  // The crash: the record of 'a' was written, its part never renamed into place.
  const [partOfA] = recordedParts(dir);
  rmSync(join(tableDir(dir), partOfA), { recursive: true });
  // Without the repair the redo of 'a' is dropped as a duplicate.
  const untouched = tempDataDir();
  execFileSync('cp', ['-a', `${dir}/.`, untouched]);
  assert.equal(engine(untouched, [insert('a', '(1),(2),(3)'), 'SELECT arraySort(groupArray(k)) FROM d.t']), '"[4,5]"');

  assert.deepEqual(cancelLostInsertRecords(dir), [{ table: 'd.t', parts: [partOfA] }]);
  assert.deepEqual(cancelLostInsertRecords(dir), [], 'a cancelled record stays cancelled');
  // The redo of both inserts: 'a' is stored, 'b' (whose part is there) is still dropped.
  assert.equal(engine(dir, [insert('a', '(1),(2),(3)'), insert('b', '(4),(5)'), 'SELECT arraySort(groupArray(k)) FROM d.t']), '"[1,2,3,4,5]"');
});

test('records of parts merged into a larger one are kept', () => {
  const dir = tempDataDir();
  engine(dir, [
    'CREATE DATABASE d',
    'CREATE TABLE d.t (k UInt32) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 100, old_parts_lifetime = 0',
    insert('a', '(1)'),
    insert('b', '(2)'),
    insert('c', '(3)'),
    'OPTIMIZE TABLE d.t FINAL',
  ]);
  assert.ok(readdirSync(tableDir(dir)).some((f) => /^all_1_3_\d+$/.test(f)), 'one merged part');
  assert.deepEqual(cancelLostInsertRecords(dir), []);
  assert.equal(engine(dir, [insert('b', '(2)'), 'SELECT count() FROM d.t']), '3');
});
