// Which layout a ClickHouse store's tables are in, as its schema_migrations table says. Each applied
// migration is recorded by version and file name; a name that is not one of this version's sql/
// files means another version made the tables (an old store has versions 1-8 under other names,
// e.g. 4 = '0004_tx_reads.sql', so comparing versions alone would take it for current). This check
// also covers a ClickHouse server database that several processes share.
import type { ClickHouseClient } from '@clickhouse/client';
import { LAYOUT_1_MIGRATIONS } from './layout-1.ts';

export interface AppliedMigration {
  version: number;
  name: string;
}

export type SchemaLayout =
  /** Every recorded migration is one of this version's (or none is recorded yet). */
  | { kind: 'current' }
  /** `foreign`: the recorded names this version does not have; all of them layout 1's ('layout-1')
   *  or not ('other': a later or unknown version). */
  | { kind: 'layout-1' | 'other'; foreign: string[] };

/** The store's recorded migrations, in version order; none when it has no schema_migrations table. */
export async function appliedMigrations(client: ClickHouseClient): Promise<AppliedMigration[]> {
  const exists = await (
    await client.query({ query: `SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = 'schema_migrations'`, format: 'JSONEachRow' })
  ).json<{ n: string }>();
  if (Number(exists[0]?.n) === 0) return [];
  const rows = await (await client.query({ query: 'SELECT version, name FROM schema_migrations ORDER BY version', format: 'JSONEachRow' })).json<{ version: number; name: string }>();
  return rows.map((r) => ({ version: Number(r.version), name: r.name }));
}

export function schemaLayout(applied: readonly AppliedMigration[], currentNames: readonly string[]): SchemaLayout {
  const current = new Set(currentNames);
  const foreign = [...new Set(applied.map((m) => m.name).filter((n) => !current.has(n)))];
  if (foreign.length === 0) return { kind: 'current' };
  const layout1 = new Set(LAYOUT_1_MIGRATIONS);
  return { kind: foreign.every((n) => layout1.has(n)) ? 'layout-1' : 'other', foreign };
}

/** Thrown by migrate() on a store of another layout: nothing is applied to it. */
export class SchemaLayoutError extends Error {
  constructor(readonly layout: Exclude<SchemaLayout, { kind: 'current' }>) {
    super(`the store's schema_migrations lists ${describeForeign(layout.foreign)}, which this version does not have (${layout.kind === 'layout-1' ? 'data layout 1' : 'another version'})`);
    this.name = 'SchemaLayoutError';
  }
}

/** "0004_tx_reads.sql and 20 more". */
export function describeForeign(foreign: readonly string[]): string {
  return foreign.length > 1 ? `${foreign[0]} and ${foreign.length - 1} more` : foreign[0];
}
