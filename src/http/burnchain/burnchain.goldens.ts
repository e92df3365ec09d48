// The burnchain family (PoX rewards and reward slot holders) against the reference's
// recorded answers, checked by ../goldens.test.ts.
import type { GoldenFamily } from '../../testing/goldens.ts';

export const burnchainGoldenFamily: GoldenFamily = { name: 'burnchain reward routes', routes: /^\/extended\/v1\/burnchain\// };
