// A crash can lose an insert that the engine has already recorded as done. Its plain MergeTree
// writes an insert's deduplication record (token → part name) *before* it renames the new part into
// place, so a crash between the two leaves a record naming a part that never existed. The batch's
// redo then carries the same token, is dropped as a duplicate, and its rows are gone for good.
// (Replicated tables commit the record and the part together in Keeper: a server cluster is safe.
// A single server's plain tables keep the gap: their files are not this process's to edit.)
//
// So, before the embedded engine opens its directory, every record whose part is not on disk (nor
// covered by a merged part) is cancelled with a DROP record: the engine's own entry for a part that
// is gone. Cancelling can never double rows: the part it names holds none.
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A part's name: partition id, then its block range, level and (after a mutation) version. */
const PART_NAME = /^([^_]+)_(\d+)_(\d+)_\d+(?:_\d+)?$/;
const LOG_NAME = /^deduplication_log_(\d+)\.txt$/;

interface BlockRange {
  partition: string;
  min: number;
  max: number;
}

function rangeOf(part: string): BlockRange | undefined {
  const m = PART_NAME.exec(part);
  return m ? { partition: m[1], min: Number(m[2]), max: Number(m[3]) } : undefined;
}

/** The engine's tables that keep a deduplication log: name and directory. */
function tablesWithLogs(engineDir: string): Array<{ table: string; dir: string }> {
  const metadata = join(engineDir, 'metadata');
  if (!existsSync(metadata)) return [];
  const out: Array<{ table: string; dir: string }> = [];
  // A database's entry is a link to its directory in store/.
  for (const db of readdirSync(metadata)) {
    if (!statSync(join(metadata, db)).isDirectory()) continue;
    for (const file of readdirSync(join(metadata, db))) {
      if (!file.endsWith('.sql')) continue;
      const uuid = /UUID '([0-9a-f-]{36})'/.exec(readFileSync(join(metadata, db, file), 'utf8'))?.[1];
      if (!uuid) continue;
      const dir = join(engineDir, 'store', uuid.slice(0, 3), uuid);
      if (existsSync(join(dir, 'deduplication_logs'))) out.push({ table: `${db}.${file.slice(0, -4)}`, dir });
    }
  }
  return out;
}

/** Cancels one table's records of parts that are not on disk; returns their part names. */
function cancelLostRecordsOfTable(tableDir: string): string[] {
  const logsDir = join(tableDir, 'deduplication_logs');
  const logs = readdirSync(logsDir)
    .map((f) => ({ f, n: Number(LOG_NAME.exec(f)?.[1] ?? NaN) }))
    .filter((l) => !Number.isNaN(l.n))
    .sort((a, b) => a.n - b.n);
  if (logs.length === 0) return [];
  // Replayed as the engine loads them: an ADD names a block id's part, a DROP forgets it.
  const recorded = new Map<string, string>();
  for (const { f } of logs) {
    for (const line of readFileSync(join(logsDir, f), 'utf8').split('\n')) {
      const [op, part, blockId] = line.split('\t');
      if (blockId === undefined) continue;
      if (op === '1') recorded.set(blockId, part);
      else if (op === '2') recorded.delete(blockId);
    }
  }
  const onDisk = readdirSync(tableDir)
    .map(rangeOf)
    .filter((r): r is BlockRange => r !== undefined);
  const covered = (r: BlockRange) => onDisk.some((p) => p.partition === r.partition && p.min <= r.min && r.max <= p.max);
  const lost: string[] = [];
  let drops = '';
  for (const [blockId, part] of recorded) {
    const r = rangeOf(part);
    if (!r || covered(r)) continue;
    lost.push(part);
    drops += `2\t${part}\t${blockId}\n`;
  }
  if (drops) appendFileSync(join(logsDir, logs[logs.length - 1].f), drops);
  return lost;
}

/** Cancels every table's records of lost parts; returns what it cancelled, per table. */
export function cancelLostInsertRecords(engineDir: string): Array<{ table: string; parts: string[] }> {
  const out: Array<{ table: string; parts: string[] }> = [];
  for (const { table, dir } of tablesWithLogs(engineDir)) {
    const parts = cancelLostRecordsOfTable(dir);
    if (parts.length) out.push({ table, parts });
  }
  return out;
}
