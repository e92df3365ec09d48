// The PoX family (v1 operations per PoX version, v2 reward cycles and signers) against the reference's
// recorded answers, checked by ../goldens.test.ts.
import type { GoldenFamily } from '../../testing/goldens.ts';

export const poxGoldenFamily: GoldenFamily = { name: 'PoX routes', routes: /^\/extended\/v1\/pox|^\/extended\/v2\/pox\// };
