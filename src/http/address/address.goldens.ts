// Issue 3 (address family, run by ../goldens.test.ts): after each recorded log is fed, every recorded
// /extended/v1/address/… and /extended/v2/addresses/… answer matches the reference's. The one
// tolerated difference is the reference's own nondeterminism: items of a list that tie on the
// list's sort key (block 1's own txs vs relabelled boot receipts with the same tx_index; the
// stx_inbound rows of one tx) come back in Postgres row-placement order.
import { matches, type Golden, type GoldenFamily } from '../../testing/goldens.ts';

// As ../shared/tools/diff-goldens.mjs: fields that depend on when the reference ran.
const VOLATILE = new Set(['server_version', 'receipt_time', 'receipt_time_iso', 'pox_v1_unlock_height_time', 'current_block_timestamp', 'sync_status', 'peers', 'middleware_version', 'node_version']);
const WALLCLOCK = new Set(['block_time', 'block_time_iso', 'burn_block_time', 'burn_block_time_iso', 'parent_burn_block_time', 'parent_burn_block_time_iso']);

/** The fields left out of a comparison: volatile ones, and wall-clock times where the golden says so. */
const skippedIn = (golden: Golden) => (k: string) => VOLATILE.has(k) || (!!golden.wallclock && WALLCLOCK.has(k));

type Item = Record<string, unknown> & { tx?: Record<string, unknown> };
const tieKey = (x: Item): string => (x.tx ? `${String(x.tx.block_height)}|${String(x.tx.tx_index)}` : `${String(x.block_height)}|${String(x.tx_index)}`);

/** True when our `results` equal the golden's up to the order of items that tie on (block_height, tx_index). */
function onlyTiesReordered(golden: Golden, ours: unknown): boolean {
  const g = golden.body as { results?: Item[] };
  const skipped = skippedIn(golden);
  const o = ours as { results?: Item[] };
  if (!Array.isArray(g?.results) || !Array.isArray(o?.results) || g.results.length !== o.results.length) return false;
  const gk = g.results.map(tieKey);
  if (gk.join() !== o.results.map(tieKey).join()) return false;
  const reordered: Item[] = [];
  for (let i = 0; i < gk.length; ) {
    let j = i;
    while (j < gk.length && gk[j] === gk[i]) j++;
    const pool = o.results.slice(i, j);
    for (const item of g.results.slice(i, j)) {
      const k = pool.findIndex((p) => matches(item, p, skipped));
      if (k < 0) return false;
      reordered.push(pool.splice(k, 1)[0]);
    }
    i = j;
  }
  return matches(golden.body, { ...o, results: reordered }, skipped);
}

export const addressGoldenFamily: GoldenFamily = {
  name: 'address routes',
  routes: /^\/extended\/v1\/address\/|^\/extended\/v2\/addresses\//,
  async unexplained(f, { apiUrl, goldens }) {
    const golden = goldens.get(f.url);
    if (!golden) return 'golden not found';
    const res = await fetch(`${apiUrl}${f.url}`);
    const ours = res.status === golden.status ? await res.json() : undefined;
    return ours && onlyTiesReordered(golden, ours) ? undefined : f.diffs.slice(0, 3).join('; ');
  },
};
