// Rows for ClickHouse, collected per table and serialized as JSONEachRow text inside the worker,
// so the main thread only concatenates strings when it batches inserts.

export type Row = Record<string, unknown>;

export class RowSet {
  private readonly tables = new Map<string, string[]>();

  add(table: string, row: Row): void {
    let lines = this.tables.get(table);
    if (!lines) this.tables.set(table, (lines = []));
    lines.push(JSON.stringify(row, bigintAsString));
  }

  /** table -> newline-terminated JSONEachRow text */
  serialize(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [table, lines] of this.tables) out[table] = lines.join('\n') + '\n';
    return out;
  }
}

function bigintAsString(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** Rows as newline-terminated JSONEachRow text (big integers as decimal strings). */
export function toJsonEachRow(rows: readonly Row[]): string {
  return rows.map((r) => JSON.stringify(r, bigintAsString)).join('\n') + '\n';
}
