// What POST /extended/analytics/v1/sql accepts: one SELECT over the documented views
// (sql/0008_analytics_sql_views.sql), nothing else. Two checks before the engine runs it, each
// refusal a 400 with the reason: the text (one statement, a SELECT, no FORMAT / SETTINGS / INTO
// OUTFILE clause of its own), then the engine's own analysis of it (EXPLAIN QUERY TREE: every table
// it reads is one of the views, no table function, no function that reaches outside the views).
// The engine then runs it read-only under its limits (sql-runner.ts).

/** The views a query may read (sql/0008_analytics_sql_views.sql). */
export const SQL_VIEWS = ['sql_blocks', 'sql_txs', 'sql_stx_events', 'sql_ft_events', 'sql_nft_events', 'sql_contract_logs', 'sql_contracts', 'sql_balances', 'sql_analytics'] as const;

export class SqlRejected extends Error {}

/** Functions that read outside the views (files, dictionaries, Join tables) or describe the host. */
const DENIED_FUNCTIONS =
  /^(file|dict\w*|joinGet\w*|filesystem\w*|catboostEvaluate|modelEvaluate|evalMLMethod|hasColumnInTable|hasTable\w*|getServerPort|getMacro|getServerSetting|getMergeTreeSetting|hostName|hostname|fqdn|tcpPort|serverUUID|shardNum|shardCount|uptime|displayName|currentProfiles|currentRoles|enabledProfiles|enabledRoles|defaultProfiles|defaultRoles|globalVariable|getClientHTTPHeader|zookeeperSessionUptime|structureTo\w*|icebergHash|showCertificate|getOSKernelVersion)$/i;

/** The text with string literals, quoted identifiers and comments blanked (keywords are scanned in what is left). */
export function codeOnly(sql: string): string {
  let out = '';
  for (let i = 0; i < sql.length; ) {
    const ch = sql[i];
    if (ch === "'" || ch === '"' || ch === '`') {
      let j = i + 1;
      while (j < sql.length && sql[j] !== ch) j += sql[j] === '\\' ? 2 : 1;
      out += ' '.repeat(Math.min(j + 1, sql.length) - i);
      i = j + 1;
    } else if (sql.startsWith('--', i) || sql.startsWith('#', i)) {
      const j = sql.indexOf('\n', i);
      const end = j < 0 ? sql.length : j;
      out += ' '.repeat(end - i);
      i = end;
    } else if (sql.startsWith('/*', i)) {
      const j = sql.indexOf('*/', i + 2);
      const end = j < 0 ? sql.length : j + 2;
      out += ' '.repeat(end - i);
      i = end;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** The statement to run (a trailing `;` dropped), or SqlRejected saying why not. */
export function checkText(sql: string): string {
  const code = codeOnly(sql);
  const trimmed = code.trimEnd();
  const body = trimmed.endsWith(';') ? sql.slice(0, trimmed.length - 1) : sql;
  const bodyCode = codeOnly(body);
  if (bodyCode.trim() === '') throw new SqlRejected('the query is empty');
  if (bodyCode.includes(';')) throw new SqlRejected('only one statement is allowed');
  if (!/^\s*(\(\s*)*(SELECT|WITH)\b/i.test(bodyCode)) throw new SqlRejected('only SELECT queries are allowed (read-only access to the documented views)');
  if (/\bINTO\s+OUTFILE\b/i.test(bodyCode)) throw new SqlRejected('INTO OUTFILE is not allowed (results come back in the answer)');
  if (/\bFORMAT\b/i.test(bodyCode)) throw new SqlRejected('a FORMAT clause is not allowed: ask for json or csv with the "format" field');
  if (/\bSETTINGS\b/i.test(bodyCode)) throw new SqlRejected('a SETTINGS clause is not allowed: the engine limits are fixed by the service');
  // Refused before the engine analyses the query: analysis already evaluates constant calls.
  for (const m of bodyCode.matchAll(/([A-Za-z_]\w*)\s*\(/g)) if (DENIED_FUNCTIONS.test(m[1])) throw new SqlRejected(`function ${m[1]} is not allowed`);
  return body;
}

/**
 * Checks the engine's query tree (EXPLAIN QUERY TREE output): every table read must be one of the
 * views in `database`; table functions and the denied functions are refused.
 */
export function checkQueryTree(tree: string, database: string): void {
  // system.one: what a SELECT without FROM reads.
  const allowed = new Set([...SQL_VIEWS.map((v) => `${database}.${v}`), 'system.one']);
  for (const m of tree.matchAll(/table_function_name: ([\w.]+)/g)) throw new SqlRejected(`table functions are not allowed (${m[1]}): read the documented views`);
  for (const m of tree.matchAll(/\bTABLE id: \d+[^\n]*?table_name: ([^\s,]+)/g)) {
    if (!allowed.has(m[1])) throw new SqlRejected(`table ${m[1].replace(`${database}.`, '')} is not readable: only the documented views (${SQL_VIEWS.join(', ')}) are`);
  }
  for (const m of tree.matchAll(/function_name: (\w+)/g)) {
    if (DENIED_FUNCTIONS.test(m[1])) throw new SqlRejected(`function ${m[1]} is not allowed`);
  }
}
