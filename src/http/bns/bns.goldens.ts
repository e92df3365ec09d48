// The BNS routes (/v1/names, /v1/namespaces, /v1/addresses, /v2/prices) against the reference's
// recorded answers, checked by ../goldens.test.ts.
import type { GoldenFamily } from '../../testing/goldens.ts';

export const bnsGoldenFamily: GoldenFamily = { name: 'BNS routes', routes: /^\/v1\/|^\/v2\/prices\// };
