// POST /extended/analytics/v1/sql: off by default, on with a token; read-only SQL over the documented
// views, held by the engine to its limits. Every attempt to read or write anything else, or to get
// around a limit, is a 4xx with a clear message, and leaves the store as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fedService } from '../../testing/goldens.ts';
import { startService } from '../../testing/service.ts';

const TOKEN = 'sql-route-test-token-0123456789';
const ENV = {
  STACKS_API_ANALYTICS_SQL_TOKEN: TOKEN,
  STACKS_API_ANALYTICS_SQL_MAX_ROWS: '50',
  STACKS_API_ANALYTICS_SQL_MAX_SECONDS: '1',
  STACKS_API_ANALYTICS_SQL_MAX_MEMORY_MB: '200',
};

/** Attempts to escape the views or the limits, each with what its refusal must say. */
const ESCAPES: Array<[string, string, RegExp]> = [
  ['system table', 'SELECT * FROM system.tables', /system\.tables is not readable/],
  ['system table in a subquery', "SELECT tx_id FROM sql_txs WHERE tx_id IN (SELECT name FROM system.tables)", /system\.tables is not readable/],
  ['system table in a scalar subquery', 'SELECT (SELECT count() FROM system.tables) AS n', /not readable|not allowed/],
  ['information schema', 'SELECT * FROM information_schema.tables', /not readable/],
  ['base table', 'SELECT * FROM txs', /txs is not readable/],
  ['base table by database', 'SELECT count() FROM stacks.balances', /balances is not readable/],
  ['base table in a CTE', 'WITH x AS (SELECT * FROM stacks.txs) SELECT count() FROM x', /txs is not readable/],
  ['base table joined', 'SELECT count() FROM sql_txs AS a INNER JOIN blocks AS b ON a.index_block_hash = b.index_block_hash', /blocks is not readable/],
  ['table function numbers', 'SELECT * FROM numbers(10)', /table functions are not allowed/],
  ['table function file', "SELECT * FROM file('/etc/passwd', 'LineAsString')", /not allowed|read-only/],
  ['table function url', "SELECT * FROM url('http://127.0.0.1:9/x', 'CSV', 'a String')", /not allowed|read-only/],
  ['table function remote', "SELECT * FROM remote('127.0.0.1', 'system', 'tables')", /not allowed|read-only/],
  ['table function merge', "SELECT count() FROM merge('stacks', '.*')", /not allowed|read-only/],
  ['table function view', 'SELECT count() FROM view(SELECT * FROM stacks.txs)', /not allowed|not readable/],
  ['file function', "SELECT file('/etc/passwd') AS f", /function file is not allowed/],
  ['dictionary', "SELECT dictGet('d', 'a', toUInt64(1)) AS v", /not allowed|dictionary/i],
  ['INTO OUTFILE', "SELECT 1 INTO OUTFILE '/tmp/analytics-escape.txt'", /INTO OUTFILE is not allowed/],
  ['FORMAT clause', 'SELECT 1 FORMAT TSV', /FORMAT clause is not allowed/],
  ['SETTINGS clause lifting readonly', 'SELECT count() FROM sql_txs SETTINGS readonly = 0', /SETTINGS clause is not allowed/],
  ['SETTINGS clause lifting the row limit', 'SELECT * FROM sql_txs SETTINGS max_result_rows = 0', /SETTINGS clause is not allowed/],
  ['two statements', 'SELECT 1; DROP TABLE txs', /only one statement/],
  ['DROP', 'DROP TABLE txs', /only SELECT/],
  ['INSERT', "INSERT INTO txs (tx_id) VALUES ('x')", /only SELECT/],
  ['CREATE', 'CREATE TABLE t (a UInt8) ENGINE = Memory', /only SELECT/],
  ['ALTER', 'ALTER TABLE txs DELETE WHERE 1', /only SELECT/],
  ['SET', 'SET readonly = 0', /only SELECT/],
  ['SYSTEM', 'SYSTEM FLUSH LOGS', /only SELECT/],
  ['comment-hidden statement', 'SELECT 1 /* ; */; DROP TABLE txs', /only one statement/],
];

test('the SQL endpoint: off by default, token, JSON and CSV, every limit and every escape refused', async () => {
  const off = await startService();
  try {
    const res = await fetch(`${off.apiUrl}/extended/analytics/v1/sql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'SELECT 1' }) });
    assert.equal(res.status, 404, 'off without a token');
    assert.match(((await res.json()) as { message: string }).message, /not enabled/);
  } finally {
    await off.stop();
  }

  const svc = await fedService('mainnet-reorg-scenario2', ENV);
  const post = async (query: unknown, opts: { token?: string | null; format?: string } = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (opts.token !== null) headers.authorization = `Bearer ${opts.token ?? TOKEN}`;
    const res = await fetch(`${svc.apiUrl}/extended/analytics/v1/sql`, { method: 'POST', headers, body: JSON.stringify({ query, ...(opts.format ? { format: opts.format } : {}) }) });
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type') ?? '', text, json: () => JSON.parse(text) as Record<string, unknown> };
  };
  try {
    assert.equal((await post('SELECT 1', { token: null })).status, 401, 'no token');
    assert.equal((await post('SELECT 1', { token: 'wrong-token-0123456789abcdef' })).status, 401, 'a wrong token');
    assert.equal((await post(42)).status, 400, 'a query that is not a string');

    const json = await post('SELECT count() AS n, toString(sum(fee_rate)) AS fees FROM sql_txs');
    assert.equal(json.status, 200, json.text);
    const body = json.json() as { columns: Array<{ name: string }>; rows: unknown[][]; row_count: number };
    assert.deepEqual(body.columns.map((c) => c.name), ['n', 'fees']);
    assert.equal(body.row_count, 1);
    const txCount = Number(body.rows[0][0]);
    assert.ok(txCount > 0);

    const csv = await post('SELECT block_height, tx_count FROM sql_blocks ORDER BY block_height', { format: 'csv' });
    assert.equal(csv.status, 200, csv.text);
    assert.match(csv.type, /^text\/csv/);
    const lines = csv.text.trim().split('\n');
    assert.equal(lines[0], '"block_height","tx_count"');
    assert.ok(lines.length >= 3, 'a row per canonical block');

    // Limits, enforced by the engine: rows, time, memory.
    const rows = await post('SELECT arrayJoin(range(1000)) AS x');
    assert.equal(rows.status, 422, rows.text);
    assert.match(rows.json().message as string, /more rows than the limit/);
    const slow = await post('SELECT count() FROM (SELECT arrayJoin(range(2000)) AS a) AS x CROSS JOIN (SELECT arrayJoin(range(2000)) AS b) AS y CROSS JOIN (SELECT arrayJoin(range(2000)) AS c) AS z WHERE cityHash64(a, b, c) = 0');
    assert.equal(slow.status, 422, slow.text);
    assert.match(slow.json().message as string, /longer than the limit/);
    const big = await post('SELECT length(groupArray(x)) AS n FROM (SELECT arrayJoin(range(100000000)) AS x)');
    assert.equal(big.status, 422, big.text);
    assert.match(big.json().message as string, /more memory than the limit/);

    for (const [name, query, message] of ESCAPES) {
      const r = await post(query);
      assert.ok(r.status >= 400 && r.status < 500, `${name}: ${r.status} ${r.text}`);
      assert.match(String(r.json().message), message, `${name}: ${r.text}`);
    }

    const again = await post("SELECT count() AS n FROM sql_txs");
    assert.equal(again.status, 200, again.text);
    assert.equal(Number((again.json() as { rows: unknown[][] }).rows[0][0]), txCount, 'nothing changed the store');
    const status = await fetch(`${svc.apiUrl}/extended`);
    assert.equal(status.status, 200, 'the service still answers');
  } finally {
    await svc.stop();
  }
});
