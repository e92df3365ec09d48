// Rows for ClickHouse, collected per table and serialized inside the worker as Native blocks
// (src/storage/native-format.ts: the engine copies a Native column where it parsed JSON text value
// by value), one block per insert target, so the main thread only concatenates bytes when it
// batches inserts.
import { DecodeError } from '../stacks/codec/bytes.ts';
import { encodeFragment, mergeFragments, type NativeFragment } from '../storage/native-format.ts';
import { columnTypes } from '../storage/column-types.ts';

export type Row = Record<string, unknown>;

/** The largest row the store takes (the engine's JSON parser refused rows over its 10 MB chunks;
 *  rows travel as Native blocks now, and the bound stays: a body that would make one is refused at
 *  decode time, the same way on every thread, never after its ack, where it would stop processing). */
export const MAX_ROW_BYTES = 8 * 1024 * 1024;

/** Where a group of rows goes: a table and the column order of its arrays, as one string key
 *  (`table(col1,col2)`) so groups merge across entries by plain string equality. */
export type InsertTarget = string;

export function insertTarget(table: string, columns: readonly string[]): InsertTarget {
  return `${table}(${columns.join(',')})`;
}

/** The table a target inserts into (without splitting its column list). */
export function targetTable(target: InsertTarget): string {
  return target.slice(0, target.indexOf('('));
}

export function parseInsertTarget(target: InsertTarget): { table: string; columns: string[] } {
  const open = target.indexOf('(');
  return { table: target.slice(0, open), columns: target.slice(open + 1, -1).split(',') };
}

interface Group {
  table: string;
  columns: string[];
  rows: Row[];
}

export class RowSet {
  private readonly groups = new Map<InsertTarget, Group>();
  /** Row objects kept per table for the tables named at construction (the serving documents are
   *  rendered from the very rows ClickHouse gets). */
  readonly captured = new Map<string, Row[]>();

  constructor(private readonly capture: ReadonlySet<string> = new Set()) {}

  // Rows of one table nearly always share one shape: remember the last group per table and only
  // build a new key when a row's keys differ from it.
  private readonly lastGroup = new Map<string, Group>();

  add(table: string, row: Row): void {
    if (this.capture.has(table)) {
      let list = this.captured.get(table);
      if (!list) this.captured.set(table, (list = []));
      list.push(row);
    }
    let group = this.lastGroup.get(table);
    if (!group || !hasColumns(row, group.columns)) {
      const keys = Object.keys(row);
      const target = insertTarget(table, keys);
      group = this.groups.get(target);
      if (!group) this.groups.set(target, (group = { table, columns: keys, rows: [] }));
      this.lastGroup.set(table, group);
    }
    checkedRow(table, row);
    group.rows.push(row);
  }

  /** target -> its rows as a Native fragment (each in an ArrayBuffer of its own). */
  serialize(): Record<InsertTarget, NativeFragment> {
    const out: Record<InsertTarget, NativeFragment> = {};
    for (const [target, g] of this.groups) out[target] = encodeFragment(g.columns, typesOf(g.table, g.columns), g.rows);
    return out;
  }
}

/** Nothing, if the store takes the row; else a DecodeError. Only rows with long text can be too
 *  large, so only strings and arrays of strings are measured, and only when they could be. */
export function checkedRow(table: string, row: Row | string): void {
  let chars = 0;
  if (typeof row === 'string') chars = row.length;
  else {
    // for-in rather than Object.values: no array per row (a decode worker makes ~40 rows a tx).
    for (const k in row) {
      const v = row[k];
      if (typeof v === 'string') chars += v.length;
      else if (Array.isArray(v)) for (const e of v) chars += typeof e === 'string' ? e.length : 8;
    }
  }
  // Characters are 1-3 bytes: only a long row needs its bytes counted.
  if (chars <= MAX_ROW_BYTES / 3) return;
  const bytes = typeof row === 'string' ? Buffer.byteLength(row) : Buffer.byteLength(JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  if (bytes > MAX_ROW_BYTES) throw new DecodeError(`a ${table} row would be ${bytes} bytes, more than the ${MAX_ROW_BYTES} the store takes`);
}

/** Whether the row's own keys are `columns`, in order (for-in, unlike Object.keys, allocates
 *  nothing for an object of a known shape). */
export function hasColumns(row: Row, columns: readonly string[]): boolean {
  let i = 0;
  for (const k in row) if (columns[i++] !== k) return false;
  return i === columns.length;
}

/** The table's types of `columns` (from sql/). */
export function typesOf(table: string, columns: readonly string[]): string[] {
  const known = columnTypes().get(table);
  if (!known) throw new Error(`no table ${table} in sql/`);
  return columns.map((c) => {
    const t = known.get(c);
    if (!t) throw new Error(`no insertable column ${table}.${c} in sql/`);
    return t;
  });
}

/** A target's fragments as one Native block. */
export function nativeBlockOf(target: InsertTarget, fragments: readonly NativeFragment[]): Uint8Array {
  const { table, columns } = parseInsertTarget(target);
  return mergeFragments(columns, typesOf(table, columns), fragments);
}

/** Rows of one table, grouped by shape, as a Native fragment per target. */
export function toNativeRows(table: string, rows: readonly Row[]): Record<InsertTarget, NativeFragment> {
  const set = new RowSet();
  for (const r of rows) set.add(table, r);
  return set.serialize();
}
