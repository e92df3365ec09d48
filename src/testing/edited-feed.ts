// Feeds a recorded log to a running service in parts (entries after `from` up to `until`), each
// body edited first: how the reorg tests put something into one fork only.
import assert from 'node:assert/strict';
import { readTsvRows } from '../ingest/tsv/read-tsv.ts';
import type { TsvRow } from '../ingest/tsv/copy-text.ts';
import { waitForProcessing, type RunningService } from './service.ts';

export async function editedFeed<B>(svc: RunningService, file: string, edit: (id: number, path: string, body: B) => void): Promise<(until: number, from?: number) => Promise<void>> {
  const rows: TsvRow[] = [];
  for await (const r of readTsvRows(file)) rows.push(r);
  return async (until, from = 0) => {
    for (const r of rows.filter((x) => x.id > from && x.id <= until)) {
      const body = JSON.parse(r.payload) as B;
      edit(r.id, r.path, body);
      const res = await fetch(`${svc.eventUrl}${r.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal(res.status, 200, `${r.id} ${r.path}`);
    }
    await waitForProcessing(svc.apiUrl);
  };
}
