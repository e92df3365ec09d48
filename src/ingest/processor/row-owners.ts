// Which log entry each row of a batch came from, so that a row the store refuses names its entry.
// The engine says where an insert failed ("at row 3211"); a batch's rows per insert target are a
// list of parts (Native fragments), each added while one entry was applied.
import type { InsertTarget } from '../../workers/rows.ts';

export interface EntryRef {
  id: number;
  path: string;
}

export class RowOwners {
  /** Per target: for each text part, the index of the entry it belongs to. */
  private readonly parts = new Map<InsertTarget, number[]>();
  private readonly entries: EntryRef[] = [];

  /** A part of `target` added while the next entry (not yet noted) is applied. */
  addPart(target: InsertTarget): void {
    let owners = this.parts.get(target);
    if (!owners) this.parts.set(target, (owners = []));
    owners.push(this.entries.length);
  }

  /** The entry whose parts were just added. */
  noteEntry(id: number, path: string): void {
    this.entries.push({ id, path });
  }

  /** The entry that row `row` (1-based) of `target`'s rows came from, given the parts. */
  entryOfRow(target: InsertTarget, parts: ReadonlyArray<{ rows: number }>, row: number): EntryRef | undefined {
    const owners = this.parts.get(target) ?? [];
    let seen = 0;
    for (let i = 0; i < parts.length; i++) {
      seen += parts[i].rows;
      if (row <= seen) return this.entries[owners[i]];
    }
    return undefined;
  }
}

/** The row an engine error names: "violated at row 3211", "(at row 3211)". */
export function failedRowOf(message: string): number | undefined {
  const m = /\bat row (\d+)/.exec(message);
  return m ? Number(m[1]) : undefined;
}
