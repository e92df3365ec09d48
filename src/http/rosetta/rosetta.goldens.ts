// The Rosetta family against the reference's recorded answers, checked by ../goldens.test.ts (whose
// service runs with the fixture's chain id, which the recorded /network/list names). The one
// tolerated difference is the order of /mempool: it lists pending txs newest received first, by
// each server's own clock (the reference's recorded txs arrived within one second and tie; ours may
// straddle a second). There ours must hold the same txs, ordered by our own receipt_time. Beyond
// that, every recorded request the reference answered 200 is a valid Mesh request, and every answer
// of ours validates against the Mesh object its route declares (200) or the Mesh Error (any other
// status).
import type { GoldenContext, GoldenComparison, GoldenFamily } from '../../testing/goldens.ts';
import { rosettaGoldens, rosettaPost } from '../../testing/rosetta-mesh-check.ts';

type Identifiers = { transaction_identifiers: Array<{ hash: string }> };

/** Why our /rosetta/v1/mempool answer is wrong, or undefined when it differs only in wall-clock order. */
async function mempoolOrderProblem({ apiUrl, fixture }: GoldenContext): Promise<string | undefined> {
  const golden = rosettaGoldens(fixture).find((g) => g.url === '/rosetta/v1/mempool');
  if (!golden) return 'no recorded /rosetta/v1/mempool answer';
  const ours = (await rosettaPost<Identifiers>(apiUrl, golden.url, golden.request_body, [])).body;
  const expected = (golden.body as Identifiers).transaction_identifiers.map((t) => t.hash);
  const got = ours.transaction_identifiers.map((t) => t.hash);
  if ([...expected].sort().join() !== [...got].sort().join()) return `not the same txs: expected ${expected.join()} got ${got.join()}`;
  const receipts: number[] = [];
  for (const hash of got) {
    const res = await fetch(`${apiUrl}/extended/v1/tx/${hash}`);
    receipts.push(((await res.json()) as { receipt_time: number }).receipt_time);
  }
  const late = receipts.findIndex((r, i) => i > 0 && r > receipts[i - 1]);
  return late < 0 ? undefined : `${got[late]} (received ${receipts[late]}) listed after one received earlier (${receipts[late - 1]})`;
}

export const rosettaGoldenFamily: GoldenFamily = {
  name: '/rosetta/v1 in Mesh shapes',
  routes: /^\/rosetta\/v1/,
  unexplained: async (f: GoldenComparison, ctx) => (f.url === '/rosetta/v1/mempool' ? mempoolOrderProblem(ctx) : f.diffs.slice(0, 3).join('; ')),
  async extraProblems(_compared, { apiUrl, fixture }) {
    const problems: string[] = [];
    // Requests the reference refused may be invalid on purpose: only our answer must validate.
    for (const g of rosettaGoldens(fixture)) await rosettaPost(apiUrl, g.url, g.request_body, problems, { invalidRequest: g.status !== 200 });
    return problems;
  },
};
