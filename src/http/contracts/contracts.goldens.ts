// The contract family (/extended/v1/contract/*, /extended/v2/smart-contracts/status) against the reference's
// recorded answers, checked by ../goldens.test.ts.
import type { GoldenFamily } from '../../testing/goldens.ts';

export const contractsGoldenFamily: GoldenFamily = { name: 'contract routes', routes: /^\/extended\/v1\/contract\/|^\/extended\/v2\/smart-contracts\// };
