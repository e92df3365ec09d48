// Test helper: a recorded log's rows, POSTed to the observer one at a time (as a node delivers
// them), so a test can stop in the middle of a feed.
import { join } from 'node:path';
import { readTsvRows } from '../../ingest/tsv/read-tsv.ts';
import type { TsvRow } from '../../ingest/tsv/copy-text.ts';
import { SHARED } from '../service.ts';

export async function fixtureRows(fixture: string): Promise<TsvRow[]> {
  const rows: TsvRow[] = [];
  for await (const r of readTsvRows(join(SHARED, 'fixtures', `${fixture}.tsv`))) rows.push(r);
  return rows;
}

export async function feedRows(eventUrl: string, rows: readonly TsvRow[]): Promise<void> {
  for (const r of rows) {
    const res = await fetch(`${eventUrl}${r.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: r.payload });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`POST ${r.path} (row ${r.id}): ${res.status}`);
  }
}
