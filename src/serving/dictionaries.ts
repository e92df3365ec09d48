// The preset dictionary the serving store's documents are compressed against (lz4.ts): samples
// of rendered documents, so a document's JSON member names, type names and common values are found
// there. It is part of the store's layout: a store is read with the dictionary it was written
// with, so changing it means a new layout version (layout.ts). `npx tsx src/cli/build-doc-dictionary.ts`
// makes it from event logs.
import { existsSync, readFileSync } from 'node:fs';
import { Lz4Dictionary } from './lz4.ts';

const load = (name: string): Lz4Dictionary => {
  // Read from the source tree, whether this module runs there or compiled in build/ (same depth).
  const url = new URL(`../../src/serving/dict/${name}.bin`, import.meta.url);
  return new Lz4Dictionary(existsSync(url) ? readFileSync(url) : new Uint8Array(0));
};

/** Tx documents (with their events and raw bytes) and mempool documents. */
export const DOC_DICTIONARY = load('docs');
