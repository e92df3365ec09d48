// The supply family (/extended/v1/stx_supply and its plain and legacy formats) against the reference's
// recorded answers, checked by ../goldens.test.ts.
import type { GoldenFamily } from '../../testing/goldens.ts';

export const supplyGoldenFamily: GoldenFamily = { name: 'STX supply routes', routes: /^\/extended\/v1\/stx_supply/ };
