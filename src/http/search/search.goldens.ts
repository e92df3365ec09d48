// The search route against the reference's
// recorded answers, checked by ../goldens.test.ts.
import type { GoldenFamily } from '../../testing/goldens.ts';

export const searchGoldenFamily: GoldenFamily = { name: 'search', routes: /^\/extended\/v1\/search\// };
