// The serving store's databases and what each takes: entries, and pages (branch, leaf, overflow)
// in MiB, from lmdb's statistics. Generic over the store object (its databases are its members), so
// it reads a store of either layout.
export function dbSizes(store: object): Array<[string, number, number]> {
  const out: Array<[string, number, number]> = [];
  for (const [name, db] of Object.entries(store)) {
    const d = db as { getStats?: () => { pageSize: number; treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number; entryCount: number } };
    // `writes` holds second handles of the same databases.
    if (name === 'env' || name === 'writes' || !d || typeof d.getStats !== 'function') continue;
    const st = d.getStats();
    out.push([name, st.entryCount, ((st.treeBranchPageCount + st.treeLeafPageCount + st.overflowPages) * st.pageSize) / 2 ** 20]);
  }
  return out;
}

/** `name 12.3, …` of the databases of at least 0.05 MiB. */
export const dbSizesText = (store: object): string =>
  dbSizes(store)
    .filter(([, , mb]) => mb >= 0.05)
    .map(([name, , mb]) => `${name} ${mb.toFixed(1)}`)
    .join(', ');
