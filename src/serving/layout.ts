// Which layout a serving store was written in. The layout (databases, key and value formats, the
// compression dictionaries) changes with this version; a store of another version is not read: it
// is refused with an error naming the command that rebuilds it from the event log.
import type { Database } from 'lmdb';

/** 3: a tx document's events and raw bytes in a value of their own (txCold; issue 35). 2: documents
 *  by placement id compressed against preset dictionaries, blocks by log id, one list per principal,
 *  tx id -> placements and mempool status (issue 32). 1 (no key): before. */
export const servingLayoutVersion = 3;

export class ServingLayoutError extends Error {
  constructor(
    readonly dir: string,
    readonly found: number,
  ) {
    super(`the serving store in ${dir} has layout ${found}, this version reads layout ${servingLayoutVersion}: rebuild it from the event log with \`npm run rebuild-serving\``);
    this.name = 'ServingLayoutError';
  }
}

/** The layout a store's meta names (1: written before layouts were named). undefined: an empty store. */
export function storedLayout(meta: Database<unknown, string>): number | undefined {
  const v = meta.get('layout');
  if (typeof v === 'number') return v;
  return meta.get('applied') === undefined && meta.get('view') === undefined ? undefined : 1;
}

/** Names the layout in a new store; throws ServingLayoutError for a store of another layout. */
export function checkLayout(dir: string, meta: Database<unknown, string>, readOnly: boolean): void {
  const found = storedLayout(meta);
  if (found === servingLayoutVersion) return;
  if (found !== undefined) throw new ServingLayoutError(dir, found);
  if (!readOnly) meta.putSync('layout', servingLayoutVersion);
}
