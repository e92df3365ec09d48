// Runs analytics SQL in a session of its own that the engine holds to read-only and to the
// configured limits (max_execution_time, max_result_rows, max_memory_usage, one thread): set once,
// then `readonly = 1`, after which the session cannot change a setting again. Queries run one at a
// time; the guard (sql-guard.ts) has checked each before it runs.
import type { Store } from '../../storage/client.ts';
import type { AnalyticsSqlConfig } from '../../config/config.ts';
import { SqlRejected, checkQueryTree, checkText } from './sql-guard.ts';

export type SqlFormat = 'json' | 'csv';

export interface SqlAnswer {
  /** JSONCompact text or CSVWithNames text. */
  text: string;
}

interface ChdbSession {
  query(sql: string, format?: string): string;
  queryAsync(sql: string, opts?: { format?: string }): Promise<{ text(): string }>;
  close(): void;
}

/** The engine refused or stopped the query (a limit, a syntax error, readonly): a 4xx, not a 5xx. */
export class SqlFailed extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Engine errors as the caller should see them: the code's meaning, the message without the stack. */
function engineError(e: unknown): SqlFailed {
  const text = String((e as Error)?.message ?? e).replace(/\s+/g, ' ').trim();
  const code = Number(/Code: (\d+)/.exec(text)?.[1] ?? 0);
  const message = text.replace(/\(version [^)]*\)/, '').replace(/Stack trace:.*$/, '').slice(0, 600);
  // 159 TIMEOUT_EXCEEDED, 241 MEMORY_LIMIT_EXCEEDED, 396 TOO_MANY_ROWS_OR_BYTES, 158 TOO_MANY_ROWS.
  if (code === 159) return new SqlFailed(`the query ran longer than the limit: ${message}`, 422);
  if (code === 241) return new SqlFailed(`the query needed more memory than the limit: ${message}`, 422);
  if (code === 396 || code === 158) return new SqlFailed(`the result has more rows than the limit: ${message}`, 422);
  if (code === 164) return new SqlFailed(`refused in read-only mode: ${message}`, 400);
  return new SqlFailed(message || 'the query failed', 400);
}

export class SqlSandbox {
  private sessions: { guard: ChdbSession; run: ChdbSession } | undefined;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly limits: AnalyticsSqlConfig,
  ) {}

  /** A read-only session under the limits; `resultRows` 0 for the guard's EXPLAIN (its output is
   *  a row per tree node), which still evaluates constant parts and so keeps the other limits. */
  private async session(resultRows: number): Promise<ChdbSession> {
    const { Session } = (await import('chdb')) as unknown as { Session: new (path: string) => ChdbSession };
    const s = new Session(this.store.path!);
    s.query(`USE \`${this.store.database}\``);
    const l = this.limits;
    s.query(
      `SET max_execution_time = ${l.maxExecutionSeconds}, max_result_rows = ${resultRows}, result_overflow_mode = 'throw', ` +
        `max_memory_usage = ${l.maxMemoryBytes}, max_threads = 1, log_queries = 0, output_format_json_quote_64bit_integers = 1, ` +
        `date_time_output_format = 'iso', allow_ddl = 0, allow_introspection_functions = 0`,
    );
    // From here on the session cannot change a setting, nor write, nor run DDL.
    s.query('SET readonly = 1');
    return s;
  }

  private async open(): Promise<{ guard: ChdbSession; run: ChdbSession }> {
    if (!this.store.path) throw new Error('the analytics SQL sandbox needs the embedded store');
    this.sessions ??= { guard: await this.session(0), run: await this.session(this.limits.maxResultRows) };
    return this.sessions;
  }

  /** Checks and runs one query; SqlRejected / SqlFailed say why not. */
  run(sql: string, format: SqlFormat): Promise<SqlAnswer> {
    const next = this.tail.then(() => this.runNow(sql, format));
    this.tail = next.catch(() => {});
    return next;
  }

  private async runNow(sql: string, format: SqlFormat): Promise<SqlAnswer> {
    const statement = checkText(sql);
    const { guard, run } = await this.open();
    let tree: string;
    try {
      tree = (await guard.queryAsync(`EXPLAIN QUERY TREE ${statement}`, { format: 'TSVRaw' })).text();
    } catch (e) {
      this.close();
      throw engineError(e);
    }
    checkQueryTree(tree, this.store.database);
    let text: string;
    try {
      text = (await run.queryAsync(statement, { format: format === 'csv' ? 'CSVWithNames' : 'JSONCompact' })).text();
    } catch (e) {
      // A session whose query failed can hand the part it wrote out with its next answer: start afresh.
      this.close();
      throw engineError(e);
    }
    // The engine checks the row limit block by block, from the second block on: a result that came
    // as one block is checked here.
    const rows = format === 'csv' ? csvRows(text) : (JSON.parse(text) as { rows: number }).rows;
    if (rows > this.limits.maxResultRows) throw new SqlFailed(`the result has more rows than the limit: ${rows} rows, maximum ${this.limits.maxResultRows}`, 422);
    return { text };
  }

  close(): void {
    this.sessions?.guard.close();
    this.sessions?.run.close();
    this.sessions = undefined;
  }
}

/** Data rows of CSVWithNames text (newlines inside quoted fields do not count). */
function csvRows(text: string): number {
  let rows = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === '\n' && !quoted) rows++;
  }
  return Math.max(0, rows - 1);
}

export { SqlRejected };
