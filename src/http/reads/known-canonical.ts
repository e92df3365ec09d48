// Blocks seen canonical, remembered until the next reorg, so most placement checks need no read of
// block_canonical. A block stops being canonical only in a batch the processor counts as a reorg,
// so "canonical" stays true until the reorg generation moves; "not canonical" is never remembered (a
// block not stored yet becomes canonical when it is). A process that does not ingest has no
// generation and remembers nothing.

const MAX_BLOCKS = 200_000;

let generationOf: () => number | undefined = () => undefined;
let knownAt: number | undefined;
const known = new Set<string>();

/** Where the reorg generation comes from: the processor, when this process ingests. */
export function followReorgs(generation: (() => number) | undefined): void {
  generationOf = generation ?? (() => undefined);
  known.clear();
  knownAt = undefined;
}

/** The generation to pass to rememberCanonical: taken before the read. */
export function reorgGeneration(): number | undefined {
  return generationOf();
}

function current(generation: number): Set<string> {
  if (knownAt !== generation) {
    known.clear();
    knownAt = generation;
  }
  return known;
}

/** Of the given index block hashes, those remembered canonical in the current generation. */
export function knownCanonical(ids: readonly string[]): Set<string> {
  const generation = generationOf();
  if (generation === undefined) return new Set();
  const set = current(generation);
  return new Set(ids.filter((id) => set.has(id)));
}

/** Remembers blocks a read found canonical, unless a reorg was stored since `generation` was taken. */
export function rememberCanonical(ids: Iterable<string>, generation: number | undefined): void {
  if (generation === undefined || generation !== generationOf()) return;
  const set = current(generation);
  for (const id of ids) {
    if (set.size >= MAX_BLOCKS) set.clear();
    set.add(id);
  }
}
