// Test helpers: what a data directory holds, to compare two of them or one before and after.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScript } from './service.ts';

/** A hash of the event log's segment files (names and bytes). */
export function eventLogHash(dataDir: string): string {
  const h = createHash('sha256');
  for (const f of readdirSync(join(dataDir, 'events')).filter((n) => n.endsWith('.seg')).sort()) h.update(f).update(readFileSync(join(dataDir, 'events', f)));
  return h.digest('hex');
}

/** `npm run db-digest` of a stopped data directory: each table's rows and content hash. */
export async function storeDigest(dataDir: string, env: Record<string, string> = {}): Promise<Record<string, { rows: number; hash: string }>> {
  const r = await runScript('src/cli/db-digest.ts', [], { ...env, STACKS_API_DATA_DIR: dataDir });
  assert.equal(r.code, 0, r.output);
  return JSON.parse(r.output.trim().split('\n').at(-1)!);
}
