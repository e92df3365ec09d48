// The Rosetta family against the reference's recorded answers, checked by ../goldens.test.ts (whose
// service runs with the fixture's chain id, which the recorded /network/list names). No difference
// is tolerated. Beyond that, every recorded request the reference answered 200 is a valid Mesh
// request, and every answer of ours validates against the Mesh object its route declares (200) or
// the Mesh Error (any other status).
import type { GoldenFamily } from '../../testing/goldens.ts';
import { rosettaGoldens, rosettaPost } from './mesh-check.ts';

export const rosettaGoldenFamily: GoldenFamily = {
  name: '/rosetta/v1 in Mesh shapes',
  routes: /^\/rosetta\/v1/,
  unexplained: async (f) => f.diffs.slice(0, 3).join('; '),
  async extraProblems(_compared, { apiUrl, fixture }) {
    const problems: string[] = [];
    // Requests the reference refused may be invalid on purpose: only our answer must validate.
    for (const g of rosettaGoldens(fixture)) await rosettaPost(apiUrl, g.url, g.request_body, problems, { invalidRequest: g.status !== 200 });
    return problems;
  },
};
