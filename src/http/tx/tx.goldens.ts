// The transaction family's acceptance check (run by ../goldens.test.ts): after each recorded log
// is fed, every recorded reference answer of /extended/v1/tx*, /extended/v1/microblock*, the v2
// block-tx list and the v2 mempool fees matches ours.
//
// The one tolerated difference is the reference's arbitrary order of list items whose sort keys are
// equal (proved per item below, from the reference's own answer):
// - mined-tx lists order by (block_height, microblock_sequence, tx_index) (after fee or burn block
//   time when asked); block 1 of a chain with a boot block shows the boot receipts beside its own
//   txs with equal tx_index, which PostgreSQL returns in row-placement order;
// - mempool lists order by receipt_time (default), which the reference took from its own clock:
//   txs received in the same second tie, and ours are received at other instants.
// Within a run of equal keys the items must be the same set (or, where the run meets the page edge,
// carry the same keys), and each item must match the reference's item with the same tx_id.
import type { Golden, GoldenFamily } from '../../testing/goldens.ts';

type Json = Record<string, unknown>;

// The comparison of ../shared/tools/diff-goldens.mjs: every golden field present and equal.
const VOLATILE = new Set(['server_version', 'receipt_time', 'receipt_time_iso']);
const WALLCLOCK = new Set(['block_time', 'block_time_iso', 'burn_block_time', 'burn_block_time_iso', 'parent_burn_block_time', 'parent_burn_block_time_iso']);

function subsetDiffs(golden: unknown, ours: unknown, path: string, wallclock: boolean, out: string[]): void {
  if (golden === null || typeof golden !== 'object') {
    if (golden !== ours) out.push(`${path}: expected ${JSON.stringify(golden)} got ${JSON.stringify(ours)}`);
    return;
  }
  if (Array.isArray(golden)) {
    if (!Array.isArray(ours) || ours.length !== golden.length) return void out.push(`${path}: array differs`);
    golden.forEach((g, i) => subsetDiffs(g, ours[i], `${path}[${i}]`, wallclock, out));
    return;
  }
  if (ours === null || typeof ours !== 'object') return void out.push(`${path}: expected object`);
  for (const [k, v] of Object.entries(golden)) {
    if (VOLATILE.has(k) || (wallclock && WALLCLOCK.has(k))) continue;
    if (!(k in ours)) out.push(`${path}.${k}: missing`);
    else subsetDiffs(v, (ours as Json)[k], `${path}.${k}`, wallclock, out);
  }
}

/** The reference's sort key of a list item for this URL. */
function sortKey(url: string, item: Json): string {
  const q = new URL(url, 'http://x').searchParams;
  if (url.startsWith('/extended/v1/tx/mempool')) {
    const by = q.get('order_by');
    return JSON.stringify(by === 'fee' ? item.fee_rate : by === 'size' ? null : item.receipt_time);
  }
  const lead = q.get('sort_by') === 'fee' ? [BigInt(item.fee_rate as string).toString().padStart(40, '0')] : q.get('sort_by') === 'burn_block_time' ? [item.burn_block_time] : [];
  return JSON.stringify([...lead, item.block_height, item.microblock_sequence, item.tx_index]);
}

/**
 * Why a failing list answer is only the reference's arbitrary order of tied items, or the reason it
 * is not. Mempool keys are the reference's receipt times: ours differ (wallclock), so a tied run in
 * the golden must be the same set in ours; mined-tx keys must be equal position by position.
 */
function explainTieOrder(g: Golden, ours: unknown): string | undefined {
  const golden = g.body as Json;
  if (!golden || !Array.isArray(golden.results) || !ours || typeof ours !== 'object' || !Array.isArray((ours as Json).results)) return 'not a list';
  const gList = golden.results as Json[];
  const oList = (ours as Json).results as Json[];
  const rest: string[] = [];
  subsetDiffs({ ...golden, results: undefined }, { ...(ours as Json), results: undefined }, '', !!g.wallclock, rest);
  if (rest.length) return rest.join('; ');
  if (gList.length !== oList.length) return `expected ${gList.length} items got ${oList.length}`;
  const mempool = g.url.startsWith('/extended/v1/tx/mempool');
  const offset = Number(golden.offset ?? 0);
  // A full page may continue on the next one (totals can't tell: the reference's counter leaves
  // block 1's relabelled boot receipts out).
  const full = gList.length === Number(golden.limit ?? -1);
  for (let i = 0; i < gList.length; ) {
    const key = sortKey(g.url, gList[i]);
    let j = i;
    while (j + 1 < gList.length && sortKey(g.url, gList[j + 1]) === key) j++;
    const gRun = gList.slice(i, j + 1);
    const oRun = oList.slice(i, j + 1);
    if (!mempool && oRun.some((o) => sortKey(g.url, o) !== key)) return `items ${i}..${j}: sort keys differ`;
    const atEdge = (i === 0 && offset > 0) || (j === gList.length - 1 && full);
    const gIds = gRun.map((x) => x.tx_id as string).sort();
    const oIds = oRun.map((x) => x.tx_id as string).sort();
    if (!atEdge && gIds.join() !== oIds.join()) return `items ${i}..${j}: not the same txs`;
    for (const item of gRun) {
      const mine = oRun.find((o) => o.tx_id === item.tx_id);
      if (!mine) continue; // beyond the page edge: a tied tx the reference put on this page
      const d: string[] = [];
      subsetDiffs(item, mine, `[${item.tx_id}]`, !!g.wallclock, d);
      if (d.length) return d.slice(0, 3).join('; ');
    }
    i = j + 1;
  }
  return undefined;
}

export const txGoldenFamily: GoldenFamily = {
  name: 'transactions, mempool and microblocks',
  routes: /^\/extended\/v1\/(tx|microblock)|^\/extended\/v2\/(blocks\/[^/]+\/transactions|mempool)/,
  async unexplained(f, { apiUrl, goldens }) {
    const g = goldens.get(f.url);
    let why = 'golden not found';
    if (g && g.status === 200) {
      const res = await fetch(apiUrl + f.url);
      why = res.status !== 200 ? `status ${res.status}` : (explainTieOrder(g, await res.json()) ?? '');
    }
    return why ? `${f.diffs.slice(0, 3).join('; ')} (${why})` : undefined;
  },
};
