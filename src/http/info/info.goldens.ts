// The info family (fee rate, network block times) against the reference's
// recorded answers, checked by ../goldens.test.ts.
import type { GoldenFamily } from '../../testing/goldens.ts';

export const infoGoldenFamily: GoldenFamily = { name: 'fee rate and network block times', routes: /^\/extended\/v1\/(fee_rate|info\/|faucets)/ };
