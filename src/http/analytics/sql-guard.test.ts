// The text checks of the SQL guard (the engine-side checks run in sql-route.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqlRejected, checkQueryTree, checkText, codeOnly } from './sql-guard.ts';

test('a single SELECT passes, with its trailing semicolon dropped and keywords inside strings ignored', () => {
  assert.equal(checkText('SELECT 1;'), 'SELECT 1');
  assert.equal(checkText("  with x AS (SELECT 'FORMAT; SETTINGS' AS s) SELECT s FROM x"), "  with x AS (SELECT 'FORMAT; SETTINGS' AS s) SELECT s FROM x");
  assert.equal(checkText('-- a comment; with a semicolon\nSELECT 2'), '-- a comment; with a semicolon\nSELECT 2');
  const code = codeOnly("SELECT 'a;b' /* c;d */ -- e;f");
  assert.equal(code.trimEnd(), 'SELECT');
  assert.equal(code.length, "SELECT 'a;b' /* c;d */ -- e;f".length);
});

test('everything else is refused with its reason', () => {
  const refused: Array<[string, RegExp]> = [
    ['', /empty/],
    ['   ;', /empty/],
    ['SELECT 1; SELECT 2', /one statement/],
    ["SELECT 1 /* x */; DROP TABLE txs", /one statement/],
    ['DROP TABLE txs', /only SELECT/],
    ['SHOW TABLES', /only SELECT/],
    ['SELECT 1 INTO  OUTFILE \'x\'', /INTO OUTFILE/],
    ['SELECT 1 INTO/**/OUTFILE \'x\'', /INTO OUTFILE/],
    ['SELECT 1 FORMAT JSON', /FORMAT/],
    ['SELECT 1 SETTINGS max_threads = 8', /SETTINGS/],
  ];
  for (const [sql, reason] of refused) assert.throws(() => checkText(sql), (e: unknown) => e instanceof SqlRejected && reason.test(e.message), sql);
});

test('the query tree may only read the documented views', () => {
  const view = 'QUERY id: 0\n  JOIN TREE\n    TABLE id: 3, alias: __table1, table_name: stacks.sql_txs\n';
  assert.doesNotThrow(() => checkQueryTree(view, 'stacks'));
  assert.throws(() => checkQueryTree(view.replace('sql_txs', 'txs'), 'stacks'), /txs is not readable/);
  assert.throws(() => checkQueryTree(view.replace('stacks.sql_txs', 'system.tables'), 'stacks'), /system\.tables is not readable/);
  assert.throws(() => checkQueryTree(view.replace('sql_txs', 'sql_txs_other'), 'stacks'), /not readable/);
  assert.throws(() => checkQueryTree('TABLE_FUNCTION id: 3, alias: __table1, table_function_name: numbers', 'stacks'), /table functions are not allowed \(numbers\)/);
  assert.throws(() => checkQueryTree(`${view}      FUNCTION id: 4, function_name: file, function_type: ordinary`, 'stacks'), /function file is not allowed/);
  assert.throws(() => checkQueryTree(`${view}      FUNCTION id: 4, function_name: dictGetString, function_type: ordinary`, 'stacks'), /dictGetString is not allowed/);
});
