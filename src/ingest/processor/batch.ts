// Rows of many log entries gathered per table and inserted together: ClickHouse wants few large
// inserts. Each insert carries a token derived from the batch's entry range and the table, which
// makes a repeated insert of the same batch a no-op.
import type { ClickHouseClient } from '@clickhouse/client';
import type { Store } from '../../storage/client.ts';
import { toJsonEachRow } from '../../workers/rows.ts';

export class Batch {
  private readonly text = new Map<string, string[]>();
  private bytes = 0;
  from = 0;
  to = 0;
  entries = 0;

  addText(table: string, jsonEachRow: string | undefined): void {
    if (!jsonEachRow) return;
    let parts = this.text.get(table);
    if (!parts) this.text.set(table, (parts = []));
    parts.push(jsonEachRow);
    this.bytes += jsonEachRow.length;
  }

  addRows(table: string, rows: Array<Record<string, unknown>>): void {
    if (rows.length === 0) return;
    this.addText(table, toJsonEachRow(rows));
  }

  addFacts(facts: Record<string, string>): void {
    for (const [table, text] of Object.entries(facts)) this.addText(table, text);
  }

  noteEntry(id: number): void {
    if (this.entries === 0) this.from = id;
    this.to = id;
    this.entries++;
  }

  get size(): number {
    return this.bytes;
  }

  get isEmpty(): boolean {
    return this.entries === 0;
  }

  tables(): string[] {
    return [...this.text.keys()];
  }

  /** Inserts every table's rows: fact tables first (any order), then `last` in its order, so readers
   *  never see a canonical flag for a block whose rows are not there yet. */
  async insert(store: Store, last: readonly string[]): Promise<void> {
    const facts = [...this.text.keys()].filter((t) => !last.includes(t));
    // Fact tables are independent: inserted side by side, the largest first.
    facts.sort((a, b) => this.sizeOf(b) - this.sizeOf(a));
    const queue = [...facts];
    const lane = async (client: ClickHouseClient) => {
      for (let t = queue.shift(); t; t = queue.shift()) await this.insertTable(client, t);
    };
    await Promise.all(store.writers().map(lane));
    for (const table of last) if (this.text.has(table)) await this.insertTable(store.client, table);
  }

  private sizeOf(table: string): number {
    return (this.text.get(table) ?? []).reduce((n, p) => n + p.length, 0);
  }

  private async insertTable(client: ClickHouseClient, table: string): Promise<void> {
    const body = this.text.get(table)!.join('');
    const token = `${this.from}-${this.to}:${table}`;
    await client.command({ query: `INSERT INTO ${table} SETTINGS insert_deduplication_token = '${token}' FORMAT JSONEachRow\n${body}` });
  }
}
